internal import ForgeCore

extension KVStoring {
    /// Reads `key` through ``get(_:)`` and ``contains(_:)``: the implementation of a store written before
    /// `value(for:)` existed.
    ///
    /// It cannot tell a stored nil from a value that does not decode when `T` is an optional (it answers
    /// `.some(nil)`), nor a value that does not decode from one the store failed to read (both throw
    /// `decodingFailed`), and its two calls are not one atomic read: a value set between them by another caller
    /// can read as undecodable. Implement `value(for:)` with ``KVKey/resolvingMigrations(in:plainRead:)`` to do
    /// better; do not implement `get` through `value(for:)` while keeping this one, which calls `get`.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try key.resolvingMigrations(in: self) { plain in
            if let value = get(plain) { return value }
            guard contains(plain) else { return nil }
            if let none = (T.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ()) as? T { return none }
            throw KVStoreError.decodingFailed(
                key: plain.key,
                underlying: "the stored value does not decode as \(T.self)"
            )
        }
    }

    /// Throws ``KVStoreError/listFailed(underlying:)``: the implementation of a store written before `keys()`
    /// existed.
    public func keys() throws -> [String] {
        throw KVStoreError.listFailed(underlying: "\(Self.self) cannot list its keys")
    }
}

extension KVKey {
    /// Reads this key from `store` as ``KVStoring/value(for:)`` does, given `plainRead`, the store's read of one
    /// key without migrations.
    ///
    /// `plainRead` returns nil when nothing is stored under the key, and throws
    /// ``KVStoreError/decodingFailed(key:underlying:)`` when what is stored does not decode. This function tries
    /// the key, then its ``migrations`` in order (each reads through `store.value(for:)` with a key without
    /// migrations), and returns the first value found. When none is found but something is stored, it throws the
    /// `decodingFailed` of the first conversion that refused an older value, or else that of the first value
    /// that did not decode.
    public func resolvingMigrations(
        in store: any KVStoring,
        plainRead: (KVKey<Value>) throws -> Value?
    ) throws -> Value? {
        var undecodable: KVStoreError?
        do {
            if let value = try plainRead(withoutMigrations) { return value }
        } catch let error as KVStoreError {
            guard case .decodingFailed = error else { throw error }
            undecodable = error
        }
        // A value under the key that does not decode is read by the migrations of the same name; a key that holds
        // nothing, by those of older names.
        let keyHoldsUndecodable = undecodable != nil
        var refused: KVStoreError?
        for migration in migrations where (migration.oldKey == nil) == keyHoldsUndecodable {
            do {
                if let value = try migration.read(from: store, key: key) { return value }
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
