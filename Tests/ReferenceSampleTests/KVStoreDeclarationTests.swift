// forgestorage-kvstore.md's declarations (KVKey.swift, KVStoring.swift, KVStoreError.swift), checked against the
// library's: each declaration is copied into `Reference` (a namespace, so it does not hide the library's type of the
// same name), and the library's types are held to it.
import ForgeKVStore
import Foundation
import Testing

/// The reference's declarations, verbatim, under a namespace of their own.
enum Reference {
    // forgestorage-kvstore.md, "KVKey.swift"
    // INTERFACE: an abridged listing, not source: `public init(_ key: String)` has no body, so it compiles nowhere
    // ("initializer requires a body"). What it declares is checked on the library's `KVKey` in
    // `KVStoreDeclarationTests.kvKeyIsTheReferencesKey` below.
    //
    // public struct KVKey<Value: Codable & Sendable>: Sendable, Equatable {
    //     public let key: String
    //
    //     public init(_ key: String)
    // }

    // forgestorage-kvstore.md, "KVStoring.swift"
    /// The reference's `KVStoring`, as it declares it.
    public protocol KVStoring: Sendable {
        func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T?
        func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws
        func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws
        func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool
        func removeAll() throws
    }

    // forgestorage-kvstore.md, "KVStoreError.swift"
    /// The reference's `KVStoreError`: four cases, each with a `String` reason.
    public enum KVStoreError: LocalizedError, Sendable {
        case encodingFailed(key: String, underlying: String)
        case writeFailed(key: String, underlying: String)
        case removeFailed(key: String, underlying: String)
        case removeAllFailed(underlying: String)
    }
}

// Every store of the library meets the reference's `KVStoring` requirements as the reference spells them: these
// conformances compile only while each requirement's signature is the reference's (a `get` that throws, or a `set`
// with another label, would not).
extension InMemoryKVStore: Reference.KVStoring {}
extension DiskKVStore: Reference.KVStoring {}
extension UserDefaultsKVStore: Reference.KVStoring {}
extension ReactiveKVStore: Reference.KVStoring {}
// And so does the store a user writes against the reference (DictionaryKVStore.swift).
extension DictionaryKVStore: Reference.KVStoring {}

struct KVStoreDeclarationTests {
    @Test func kvKeyIsTheReferencesKey() {
        let key = KVKey<Int>("taskflow.taskCount")
        let sendable: any Sendable = key
        #expect(key.key == "taskflow.taskCount")
        #expect(key == KVKey<Int>("taskflow.taskCount"))
        #expect(key != KVKey<Int>("taskflow.other"))
        #expect(sendable is KVKey<Int>)
    }

    @Test func kvStoreErrorHasTheReferencesCasesAndConformances() {
        let key = "taskflow.settings"
        let underlying = "the reason"
        let encoding: any LocalizedError & Sendable = KVStoreError.encodingFailed(key: key, underlying: underlying)
        #expect(encoding.errorDescription?.contains(key) == true)
        // DIVERGES: the reference declares `writeFailed`, `removeFailed` and `removeAllFailed` with
        // `underlying: String`; the library's take `underlying: FailureReason`, so code that makes them from a
        // `String` value, as a store written against the reference does (`underlying: error.localizedDescription`),
        // does not compile: "cannot convert value of type 'String' to expected argument type 'FailureReason'".
        // (A string literal still compiles: `FailureReason` is `ExpressibleByStringLiteral`.)
        //
        // let write: KVStoreError = .writeFailed(key: key, underlying: underlying)
        // let remove: KVStoreError = .removeFailed(key: key, underlying: underlying)
        // let removeAll: KVStoreError = .removeAllFailed(underlying: underlying)
        let write: KVStoreError = .writeFailed(key: key, underlying: "the reason")
        let remove: KVStoreError = .removeFailed(key: key, underlying: "the reason")
        let removeAll: KVStoreError = .removeAllFailed(underlying: "the reason")
        #expect(write.key == key)
        #expect(remove.key == key)
        #expect(removeAll.key == nil)
    }

    // DIVERGES: the reference's `KVStoreError` has four cases, so a `switch` over them is exhaustive; the library's has
    // eight (`decodingFailed`, `readFailed`, `listFailed` and `flushFailed` besides), so the same `switch` does not
    // compile: "switch must be exhaustive".
    //
    // func describe(_ error: KVStoreError) -> String {
    //     switch error {
    //     case .encodingFailed(let key, _): "encoding \(key)"
    //     case .writeFailed(let key, _): "writing \(key)"
    //     case .removeFailed(let key, _): "removing \(key)"
    //     case .removeAllFailed: "removing all"
    //     }
    // }
}
