extension KVStoring {
    /// Reads `key` through ``get(_:)`` and ``contains(_:)``, with its migrations: the implementation of a store
    /// written against `get`, `set`, `remove`, `contains` and `removeAll()` alone.
    ///
    /// It cannot tell a stored nil from a value that does not decode when `T` is an optional (it answers
    /// `.some(nil)`), nor a value that does not decode from one the store failed to read (both throw
    /// `decodingFailed`), and its two calls are not one atomic read. Build the store on ``KVBackend`` to do better;
    /// do not implement `get` through `value(for:)` while keeping this one, which calls `get`.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try TypedReads(store: self).value(for: key)
    }

    /// Throws ``KVStoreError/listFailed(underlying:)``: the implementation of a store written against `get`, `set`,
    /// `remove`, `contains` and `removeAll()` alone.
    public func keys() throws -> [String] {
        throw KVStoreError.listFailed(underlying: "\(Self.self) cannot list its keys")
    }
}
