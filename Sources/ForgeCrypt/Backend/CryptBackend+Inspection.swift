internal import ForgeCore

/// Reading a store without knowing the types of its secrets, for tools that inspect one (such as the `forge inspect`
/// command of the examples): the same on every store built on the backend contract, the in-memory twin included.
///
/// A store that can count without reading its secrets implements ``CryptBackend/itemCount()`` itself, as
/// ``EncryptedFileCrypt`` does; a store that can be counted without being opened (without its master key) has a static
/// function of the same name: `EncryptedFileCrypt.itemCount(directory:namespace:)`,
/// `PostgresCrypt.itemCount(client:namespace:)`, `SQLiteCrypt.itemCount(database:namespace:)`.
extension CryptBackend {
    /// The number of secrets this store holds: the names ``storedNames()`` lists, each once whatever its spelling,
    /// as many as ``CryptStoring/keys()`` lists.
    ///
    /// A store that counts without opening its secrets may count more: ``EncryptedFileCrypt`` also counts an item
    /// that is damaged or cannot be listed by name, for which `keys()` throws.
    ///
    /// ```swift
    /// print("\(try secrets.itemCount()) secret(s)")
    /// ```
    ///
    /// - Throws: What ``storedNames()`` throws.
    public func itemCount() throws -> Int {
        KeyListing.count(try storedNames())
    }
}

extension AsyncCryptBackend {
    /// The number of secrets this store holds: the names ``storedNames()`` lists, each once whatever its spelling; see
    /// ``CryptBackend/itemCount()``.
    ///
    /// - Throws: What ``storedNames()`` throws.
    public func itemCount() async throws -> Int {
        KeyListing.count(try await storedNames())
    }
}
