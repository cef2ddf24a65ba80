import Foundation
import Testing

@testable import ForgeCore

/// How a failed system call's `errno` becomes the typed reason the stores report, and how reasons read.
struct FailureReasonTests {
    @Test(arguments: [
        (ENOENT, FailureReason.notFound),
        (ENOSPC, .outOfSpace),
        (EDQUOT, .outOfSpace),
        (EACCES, .permissionDenied),
        (EPERM, .permissionDenied),
        (EROFS, .readOnlyVolume),
        (EISDIR, .isFolder),
        (ENOTDIR, .parentIsFile),
        (ELOOP, .symbolicLink),
        (EIO, .ioError),
    ])
    func eachKnownErrnoHasItsReason(code: Int32, reason: FailureReason) {
        #expect(FileSystemError(.write, path: "/x/p", code: code).reason == reason)
    }

    @Test func anotherErrnoIsOtherWithTheSystemsSentence() {
        let error = FileSystemError(.open, path: "/x/p", code: EMFILE)
        #expect(error.reason == .other(error.description))
        #expect(error.description.contains("errno \(EMFILE)"))
    }

    @Test func aStringLiteralIsOther() {
        let literal: FailureReason = "the defaults could not be written"
        let interpolated: FailureReason = "slot \(3) is taken"
        #expect(literal == .other("the defaults could not be written"))
        #expect(interpolated == .other("slot 3 is taken"))
        #expect(literal.description == "the defaults could not be written")
    }

    @Test func reasonsReadAsShortPhrases() {
        #expect(FailureReason.outOfSpace.description == "there is no space left on the volume")
        #expect(FailureReason.readOnlyVolume.description == "the volume is read-only")
        #expect(FailureReason.notFound.description == "it does not exist")
        #expect(
            FailureReason.busy.description
                == "another connection or process kept it locked past the time allowed to wait"
        )
    }
}
