import ForgeCore
import Foundation
import Testing

@testable import ForgeCrypt

struct CryptStoreErrorTests {
    @Test func descriptionsNameTheKeyOrPathAndTheReason() {
        let cases: [(CryptStoreError, [String])] = [
            (.wrongMasterKey(path: "/v", createdWith: .passphrase), ["/v", "master key", "a passphrase"]),
            (.wrongMasterKey(path: "/v", createdWith: nil), ["/v", "a key file or a symmetric key"]),
            (.keyFileNotFound(path: "/k", vaultPath: "/v"), ["/k", "/v", "does not exist"]),
            (.rotationInProgress(path: "/v"), ["/v", "being changed", "run the rotation again"]),
            (.masterKeyRotated(path: "/v"), ["/v", "was changed", "new master key"]),
            (.tamperedItem(key: "auth.access"), ["auth.access", "authentication"]),
            (.corruptVault(path: "/v", reason: "unknown format 9"), ["/v", "unknown format 9"]),
            (.insecureKeyFile(path: "/k", permissions: 0o644), ["/k", "0644"]),
            (.notAccessibleNow(key: "auth.access"), ["auth.access", "locked"]),
            (.missingEntitlement(key: nil), ["entitlement"]),
            (.unexpectedStatus(key: "k", status: -25_293), ["'k'", "-25293"]),
            (.writeFailed(key: "k", underlying: "No space left on device"), ["'k'", "No space left"]),
            (.writeFailed(key: "k", underlying: .outOfSpace), ["'k'", "no space left on the volume"]),
            (.openFailed(path: "/v", underlying: .readOnlyVolume), ["/v", "read-only"]),
            (.listFailed(underlying: .permissionDenied), ["list the keys", "permission was denied"]),
        ]
        for (error, fragments) in cases {
            let text = error.errorDescription ?? ""
            for fragment in fragments {
                #expect(text.contains(fragment), "\(text) lacks \(fragment)")
            }
            #expect(error.description == text)
        }
    }

    @Test func keyNamesTheKeyOfPerKeyFailuresOnly() {
        #expect(CryptStoreError.tamperedItem(key: "a").key == "a")
        #expect(CryptStoreError.notAccessibleNow(key: "b").key == "b")
        #expect(CryptStoreError.unexpectedStatus(key: nil, status: -1).key == nil)
        #expect(CryptStoreError.wrongMasterKey(path: "/v", createdWith: .keyFile).key == nil)
        #expect(CryptStoreError.rotationInProgress(path: "/v").key == nil)
        #expect(CryptStoreError.masterKeyRotated(path: "/v").reason == nil)
        #expect(CryptStoreError.listFailed(underlying: .ioError).key == nil)
    }

    @Test func theReasonIsTheSystemCauseOfEveryFileFailure() {
        #expect(CryptStoreError.writeFailed(key: "k", underlying: .outOfSpace).reason == .outOfSpace)
        #expect(CryptStoreError.readFailed(key: "k", underlying: .ioError).reason == .ioError)
        #expect(CryptStoreError.removeFailed(key: "k", underlying: .permissionDenied).reason == .permissionDenied)
        #expect(CryptStoreError.removeAllFailed(underlying: .readOnlyVolume).reason == .readOnlyVolume)
        #expect(CryptStoreError.openFailed(path: "/v", underlying: "busy").reason == .other("busy"))
        #expect(CryptStoreError.listFailed(underlying: .symbolicLink).reason == .symbolicLink)
        #expect(CryptStoreError.notAccessibleNow(key: "k").reason == nil)
        #expect(CryptStoreError.tamperedItem(key: "k").reason == nil)
        #expect(CryptStoreError.decodingFailed(key: "k", underlying: "not UTF-8").reason == nil)
    }

    @Test func systemFailuresMapToTheirReason() {
        #expect(
            CryptStoreError(FileSystemError(.open, path: "k", code: ENOSPC), writing: "k")
                == .writeFailed(key: "k", underlying: .outOfSpace)
        )
        #expect(
            CryptStoreError(FileSystemError(.open, path: "k", code: EIO), reading: "k")
                == .readFailed(key: "k", underlying: .ioError)
        )
        #expect(
            CryptStoreError(FileSystemError(.list, path: "", code: EROFS), removing: nil)
                == .removeAllFailed(underlying: .readOnlyVolume)
        )
        #expect(
            CryptStoreError(listing: FileSystemError(.list, path: "/v", code: EACCES))
                == .listFailed(underlying: .permissionDenied)
        )
        #expect(
            CryptStoreError(FileSystemError(.createDirectory, path: "/v", code: EACCES), opening: "/v")
                == .openFailed(path: "/v", underlying: .permissionDenied)
        )
    }
}
