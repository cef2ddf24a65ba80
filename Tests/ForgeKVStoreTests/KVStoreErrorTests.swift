import ForgeCore
import Foundation
import Testing

@testable import ForgeKVStore

struct KVStoreErrorTests {
    @Test func descriptionsNameTheKeyAndTheReason() {
        let cases: [(KVStoreError, String)] = [
            (.encodingFailed(key: "a.b", underlying: "nan"), "Could not encode the value for key 'a.b': nan"),
            (
                .writeFailed(key: "a.b", underlying: "No space left"),
                "Could not write the value for key 'a.b': No space left"
            ),
            (.removeFailed(key: "a.b", underlying: "denied"), "Could not remove the value for key 'a.b': denied"),
            (.removeAllFailed(underlying: "busy"), "Could not remove all values: busy"),
            (
                .decodingFailed(key: "profile", underlying: "keyNotFound age"),
                "The value stored for key 'profile' does not decode as the type asked for: keyNotFound age"
            ),
            (
                .readFailed(key: "a.b", underlying: .isFolder),
                "Could not read the value for key 'a.b': it is a folder, not a file"
            ),
            (.listFailed(underlying: "denied"), "Could not list the keys: denied"),
            (
                .flushFailed(domain: "group.app", underlying: .isFolder),
                "Could not write the values of the defaults domain 'group.app' to its property list: it is a folder, not a file"
            ),
        ]
        for (error, text) in cases {
            #expect(error.errorDescription == text)
            #expect(error.description == text)
        }
        #expect(KVStoreError.writeFailed(key: "k", underlying: "").key == "k")
        #expect(KVStoreError.removeAllFailed(underlying: "").key == nil)
        #expect(KVStoreError.flushFailed(domain: "group.app", underlying: "").key == nil)
        #expect(KVStoreError.decodingFailed(key: "profile", underlying: "").key == "profile")
        #expect(KVStoreError.readFailed(key: "profile", underlying: "").key == "profile")
        #expect(KVStoreError.listFailed(underlying: "").key == nil)
        #expect(
            KVStoreError.writeFailed(key: "a.b", underlying: .outOfSpace).description
                == "Could not write the value for key 'a.b': there is no space left on the volume"
        )
    }

    @Test func theReasonIsTheSystemCauseOfEveryStorageFailure() {
        #expect(KVStoreError.writeFailed(key: "k", underlying: .outOfSpace).reason == .outOfSpace)
        #expect(KVStoreError.removeFailed(key: "k", underlying: .permissionDenied).reason == .permissionDenied)
        #expect(KVStoreError.removeAllFailed(underlying: .readOnlyVolume).reason == .readOnlyVolume)
        #expect(KVStoreError.flushFailed(domain: "d", underlying: .outOfSpace).reason == .outOfSpace)
        #expect(KVStoreError.writeFailed(key: "k", underlying: "busy").reason == .other("busy"))
        #expect(KVStoreError.encodingFailed(key: "k", underlying: "nan").reason == nil)
        #expect(KVStoreError.decodingFailed(key: "k", underlying: "bad").reason == nil)
        #expect(KVStoreError.readFailed(key: "k", underlying: .permissionDenied).reason == .permissionDenied)
        #expect(KVStoreError.listFailed(underlying: .permissionDenied).reason == .permissionDenied)
    }

    @Test func aFullDiskMatchesByItsReason() {
        let error: any Error = KVStoreError.writeFailed(key: "k", underlying: .outOfSpace)
        var matched = false
        do {
            throw error
        } catch KVStoreError.writeFailed(_, .outOfSpace) {
            matched = true
        } catch {
            Issue.record("\(error) did not match as a full disk")
        }
        #expect(matched)
    }

    @Test func theReferenceAPIsSwitchStillReadsTheUnderlyingReason() {
        var printed: [String] = []
        for error in [
            KVStoreError.writeFailed(key: "k", underlying: .outOfSpace), .encodingFailed(key: "k", underlying: "nan"),
        ] {
            switch error {
            case .encodingFailed(let key, let underlying):
                printed.append("Encoding failed for '\(key)': \(underlying)")
            case .writeFailed(let key, let underlying):
                printed.append("Write failed for '\(key)': \(underlying)")
            default:
                printed.append(error.localizedDescription)
            }
        }
        #expect(
            printed == ["Write failed for 'k': there is no space left on the volume", "Encoding failed for 'k': nan"]
        )
    }

    @Test func systemFailuresMapToTheirReason() {
        let write = KVStoreError(FileSystemError(.open, path: "k", code: ENOSPC), writing: "k")
        #expect(write == .writeFailed(key: "k", underlying: .outOfSpace))
        let remove = KVStoreError(FileSystemError(.remove, path: "k", code: EROFS), removing: "k")
        #expect(remove == .removeFailed(key: "k", underlying: .readOnlyVolume))
        let removeAll = KVStoreError(FileSystemError(.remove, path: "", code: EACCES), removing: nil)
        #expect(removeAll == .removeAllFailed(underlying: .permissionDenied))
    }

    @Test func keysCompareByStringAndType() {
        #expect(KVKey<Int>("a") == KVKey<Int>("a"))
        #expect(KVKey<Int>("a") != KVKey<Int>("b"))
        #expect(KVKey<Int>("a").description == "KVKey<Int>(\"a\")")
    }
}
