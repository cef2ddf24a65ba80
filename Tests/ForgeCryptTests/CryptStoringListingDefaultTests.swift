import ForgeCrypt
import Testing

/// A store written before `keys()` existed still compiles, and its `keys()` says it cannot list.
struct CryptStoringListingDefaultTests {
    /// A user's store with only the requirements that came before `keys()`.
    private struct OlderStore: CryptStoring {
        func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? { nil }
        func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {}
        func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {}
        func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool { false }
        func deleteAll() throws {}
    }

    @Test func aStoreWithoutKeysThrowsListFailedNamingItsType() {
        let error = #expect(throws: CryptStoreError.self) { try OlderStore().keys() }
        guard case .listFailed(let reason) = error else {
            Issue.record("expected listFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.description.contains("OlderStore"))
    }
}
