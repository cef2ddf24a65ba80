/// Where the typed API reads a key's stored values: a ``KVBackend``, the values an ``AsyncKVBackend`` returned for
/// a key's names, or a store written against ``KVStoring`` alone, through its `get` and `contains`.
///
/// The one home of the read policy: ``value(for:)`` tries a key, then its migrations, for every store (and for the
/// package's test stores that play stores written against ``KVStoring`` alone).
package protocol KVValueSource {
    /// The value stored under `name` as a `T`, without migrations; nil when nothing is stored there.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` when what is stored does not decode as `T`, or
    ///   ``KVStoreError/readFailed(key:underlying:)`` when it cannot be read.
    func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T?
}

extension KVValueSource {
    /// The value of `key`: read as a `Value`, or migrated from what an older version stored; nil only when nothing
    /// is stored under the key or an older name of its migrations.
    ///
    /// - Throws: ``KVStoreError``; see ``resolvedValue(for:)``.
    package func value<Value>(for key: KVKey<Value>) throws -> Value? {
        try resolvedValue(for: key)?.value
    }

    /// The value of `key` and the migration that read it, if one did: read as a `Value`, or migrated from what an
    /// older version stored; nil only when nothing is stored under the key or an older name of its migrations.
    ///
    /// It tries the key, then its migrations in order, and returns the first value found. A value under the key
    /// that does not decode is read by the migrations of the same name; a key that holds nothing, by those of older
    /// names. When none is found but something is stored, it throws the `decodingFailed` of the first conversion that
    /// refused an older value, or else that of the first value that did not decode.
    ///
    /// - Throws: ``KVStoreError``.
    package func resolvedValue<Value>(for key: KVKey<Value>) throws -> KVResolvedValue<Value>? {
        var undecodable: KVStoreError?
        do {
            if let value = try plainValue(of: Value.self, named: key.key) {
                return KVResolvedValue(value: value, migration: nil)
            }
        } catch let error as KVStoreError {
            guard case .decodingFailed = error else { throw error }
            undecodable = error
        }
        let keyHoldsUndecodable = undecodable != nil
        var refused: KVStoreError?
        for migration in key.migrations where (migration.oldKey == nil) == keyHoldsUndecodable {
            do {
                if let value = try migration.read(from: self, key: key.key) {
                    return KVResolvedValue(value: value, migration: migration)
                }
            } catch let failure as ConversionFailure {
                refused = refused ?? failure.error
            } catch let error as KVStoreError {
                guard case .decodingFailed = error else { throw error }
                undecodable = undecodable ?? error
            }
        }
        if let error = refused ?? undecodable { throw error }
        return nil
    }
}

/// A key's value as the read policy found it, with the migration that read it when one did.
package struct KVResolvedValue<Value: Codable & Sendable> {
    /// The value read.
    let value: Value
    /// The migration that read and converted it; nil when the key's own value decoded.
    let migration: KVMigration<Value>?
}

/// A ``KVBackend`` read name by name, as the typed API reads it.
struct BackendValues<Backend: KVBackend>: KVValueSource {
    let backend: Backend

    func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T? {
        try backend.liveValue(named: name)?.decode(T.self, name: name)
    }
}

/// The values an ``AsyncKVBackend`` returned for every name of a key.
struct FetchedValues: KVValueSource {
    let values: [String: KVStoredValue]

    func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T? {
        try values[name]?.decode(T.self, name: name)
    }
}

/// A store written against ``KVStoring``'s first requirements alone, read through its `get` and `contains`.
///
/// It cannot tell a stored nil from a value that does not decode when `T` is an optional (it answers `.some(nil)`),
/// nor a value that does not decode from one the store failed to read (both throw `decodingFailed`), and its two
/// calls are not one atomic read.
struct TypedReads: KVValueSource {
    let store: any KVStoring

    func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T? {
        let plain = KVKey<T>(name)
        if let value = store.get(plain) { return value }
        guard store.contains(plain) else { return nil }
        if let none = (T.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? T { return none }
        throw KVStoreError.decodingFailed(key: name, underlying: "the stored value does not decode as \(T.self)")
    }
}
