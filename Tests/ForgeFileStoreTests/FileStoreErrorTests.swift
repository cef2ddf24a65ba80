import ForgeCore
import Foundation
import Testing

@testable import ForgeFileStore

/// How system failures become ``FileStoreError``s, and how the errors read.
struct FileStoreErrorTests {
    @Test(arguments: [
        (ENOSPC, FileStoreError.writeFailed(path: "p", reason: .outOfSpace)),
        (EDQUOT, .writeFailed(path: "p", reason: .outOfSpace)),
        (EACCES, .writeFailed(path: "p", reason: .permissionDenied)),
        (EPERM, .writeFailed(path: "p", reason: .permissionDenied)),
        (EROFS, .writeFailed(path: "p", reason: .readOnlyVolume)),
        (EIO, .writeFailed(path: "p", reason: .ioError)),
        (EISDIR, .writeFailed(path: "p", reason: .isFolder)),
        (ENOTDIR, .writeFailed(path: "p", reason: .parentIsFile)),
        (ELOOP, .writeFailed(path: "p", reason: .symbolicLink)),
        (EEXIST, .alreadyExists(path: "p")),
    ])
    func writeFailuresAreToldApart(code: Int32, expected: FileStoreError) {
        let error = FileStoreError(FileSystemError(.rename, path: "/x/p", code: code), operation: .write, path: "p")
        #expect(error == expected)
    }

    @Test func readAndDeleteFailuresAreToldApart() {
        func read(_ code: Int32) -> FileStoreError {
            FileStoreError(FileSystemError(.open, path: "/x/p", code: code), operation: .read, path: "p")
        }
        func delete(_ code: Int32) -> FileStoreError {
            FileStoreError(FileSystemError(.remove, path: "/x/p", code: code), operation: .delete, path: "p")
        }
        #expect(read(ENOENT) == .notFound(path: "p"))
        #expect(read(ENOTDIR) == .notFound(path: "p"))
        #expect(read(EACCES) == .readFailed(path: "p", reason: .permissionDenied))
        #expect(delete(ENOENT) == .notFound(path: "p"))
        #expect(delete(EPERM) == .deleteFailed(path: "p", reason: .permissionDenied))
        #expect(read(EIO) == .readFailed(path: "p", reason: .ioError))
        guard case .readFailed(_, .other(let message)) = read(EMFILE) else {
            Issue.record("EMFILE is not an 'other' reason")
            return
        }
        #expect(message.contains("errno \(EMFILE)"))
    }

    @Test func descriptionsNameThePathAndTheReason() {
        #expect(FileStoreError.notFound(path: "a.txt").description == "No file is stored at 'a.txt'.")
        #expect(
            FileStoreError.writeFailed(path: "big.bin", reason: .outOfSpace).errorDescription
                == "Could not save 'big.bin': there is no space left on the volume."
        )
        #expect(
            FileStoreError.invalidPath(path: "../x", reason: "the path has a '..' name").localizedDescription
                == "'../x' is not a valid file path: the path has a '..' name."
        )
        #expect(
            FileStoreError.deleteFailed(path: "", reason: .permissionDenied).description
                == "Could not delete the store's files: permission was denied."
        )
    }

    @Test func theReasonIsTheSystemCauseOfEveryCaseThatHasOne() {
        #expect(FileStoreError.notFound(path: "p").reason == .notFound)
        #expect(FileStoreError.writeFailed(path: "p", reason: .outOfSpace).reason == .outOfSpace)
        #expect(FileStoreError.readFailed(path: "p", reason: .ioError).reason == .ioError)
        #expect(FileStoreError.deleteFailed(path: "p", reason: .readOnlyVolume).reason == .readOnlyVolume)
        #expect(FileStoreError.listFailed(path: "", reason: "busy").reason == .other("busy"))
        #expect(FileStoreError.alreadyExists(path: "p").reason == nil)
        #expect(FileStoreError.invalidPath(path: "..", reason: "a '..' name").reason == nil)
        #expect(FileStoreError.decodingFailed(path: "p", underlying: "not JSON").reason == nil)
    }
}
