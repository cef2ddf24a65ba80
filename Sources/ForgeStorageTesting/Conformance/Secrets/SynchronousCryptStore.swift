internal import ForgeCrypt

/// A `CryptStoring` seen as an `AsyncCryptStoring`: each method calls the synchronous one of the same name.
///
/// It lets ``CryptStoringConformance`` run the checks ``AsyncCryptStoringConformance`` defines against any
/// synchronous store, one that does not conform to `AsyncCryptStoring` included, through its synchronous methods.
struct SynchronousCryptStore: AsyncCryptStoring {
    /// The store every call goes to.
    let base: any CryptStoring

    init(_ base: any CryptStoring) {
        self.base = base
    }

    func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws -> Value? { try base.get(key) }

    func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) async throws {
        try base.set(value, for: key)
    }

    func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws { try base.delete(key) }

    func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) async throws -> Bool { try base.contains(key) }

    func deleteAll() async throws { try base.deleteAll() }

    func keys() async throws -> [String] { try base.keys() }
}
