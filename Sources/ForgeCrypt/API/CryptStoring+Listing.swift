extension CryptStoring {
    /// Throws ``CryptStoreError/listFailed(underlying:)``: the implementation of a store written before `keys()`
    /// existed.
    ///
    /// Implement ``CryptStoring/keys()`` in your store to list its keys; the conformance suite
    /// (`CryptStoringConformance` in ForgeStorageTesting) expects it.
    ///
    /// - Returns: No keys: the call always throws.
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``, naming the store's type.
    public func keys() throws -> [String] {
        throw CryptStoreError.listFailed(underlying: "\(Self.self) cannot list its keys")
    }
}
