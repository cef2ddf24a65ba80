public import Foundation

/// Reading a store without knowing the types of its values, for tools that inspect one (such as the `forge inspect`
/// command of the examples): the same on every store built on the backend contract.
extension KVBackend {
    /// The JSON of the value stored under `key`, or nil when the store holds none or cannot be read.
    ///
    /// Migrations are not followed. A store that keeps JSON (the disk and in-memory stores, PostgreSQL) returns the
    /// bytes as they are, so a damaged value (which `get` reads as nil) shows what it holds: check with
    /// `JSONSerialization` whether they are JSON. `UserDefaultsKVStore` returns its property-list value encoded as
    /// JSON, and empty `Data` for a value JSON cannot express.
    ///
    /// ```swift
    /// for key in try store.keys() {
    ///     print(key, String(decoding: store.rawJSON(forKey: key) ?? Data(), as: UTF8.self))
    /// }
    /// ```
    public func rawJSON(forKey key: String) -> Data? {
        (try? storedValue(named: key))?.json
    }
}

extension AsyncKVBackend {
    /// The JSON of the value stored under `key`, as the store holds it, or nil when it holds none; see
    /// ``KVBackend/rawJSON(forKey:)``.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the store cannot be read.
    public func rawJSON(forKey key: String) async throws -> Data? {
        try await storedValues(named: [key])[key]?.json
    }
}
