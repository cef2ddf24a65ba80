internal import Foundation
internal import ForgeCore

/// Looking at a vault from outside, for tools that inspect a data folder (such as the `forge inspect`
/// command of the examples).
///
/// A vault's item files are named by a keyed hash, so without the master key nobody can tell which keys it
/// holds, only how many items. With the master key, read a known key with `get(_:)`.
extension EncryptedFileCrypt {
    /// The number of items in this vault, counted from one listing of its folder: no item is read or opened.
    ///
    /// The vault's ``CryptBackend/itemCount()``, which every secret store has: the number of keys
    /// ``CryptStoring/keys()`` lists, which opens every item, but found without opening any. So it also counts an
    /// item that does not open (`get(_:)` and `keys()` tell whether one is intact) and an item written before key
    /// names were sealed in items, which `keys()` cannot list.
    ///
    /// While the master key is being changed, the item files of both keys are in the folder: the count is then the
    /// one the rotation recorded in the header when it began, as no write happens until it ends.
    ///
    /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` when the vault folder cannot be listed,
    ///   ``CryptStoreError/vaultReplaced(path:)`` when it now holds another vault, or
    ///   ``CryptStoreError/masterKeyRotated(path:)`` when this store's key no longer opens it.
    public func itemCount() throws -> Int {
        let vault = vault
        if let rotation = try vault.checkHeader() { return rotation.itemCount }
        return try Self.countItems(in: vault.folder)
    }

    /// Whether the folder of namespace `namespace` in `directory` holds a vault, without opening it.
    ///
    /// True when the folder holds the vault's header file (`vault.json`); nothing is created or changed,
    /// and no master key is needed.
    ///
    /// - Parameters:
    ///   - directory: The base folder.
    ///   - namespace: The vault's namespace.
    /// - Returns: True when the namespace's folder holds a vault header.
    public static func vaultExists(directory: StorageDirectory, namespace: String) -> Bool {
        (try? holdsHeader(StoreFolder(directory: directory, namespace: namespace))) ?? false
    }

    /// Whether `folder` holds a vault's header file.
    ///
    /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` with the reason when the header cannot be looked at:
    ///   that is not a missing vault.
    static func holdsHeader(_ folder: StoreFolder) throws(CryptStoreError) -> Bool {
        do {
            return try folder.status(of: VaultHeader.fileName)?.kind == .file
        } catch  where error.isNotFound {
            return false
        } catch {
            throw .openFailed(path: folder.path, underlying: error.reason)
        }
    }

    /// The number of items in the vault of namespace `namespace` in `directory`, without opening it.
    ///
    /// No master key is needed and nothing is created or changed; a folder that does not exist holds none. While the
    /// vault's master key is being changed, it is the count the rotation recorded in the header when it began.
    ///
    /// ```swift
    /// let count = try EncryptedFileCrypt.itemCount(directory: .custom(dataFolder), namespace: "secrets")
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The base folder.
    ///   - namespace: The vault's namespace.
    /// - Returns: The number of items; zero when the folder does not exist.
    /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` when the vault folder cannot be listed.
    public static func itemCount(directory: StorageDirectory, namespace: String) throws -> Int {
        let folder = StoreFolder(directory: directory, namespace: namespace)
        if let header = try OpenedVault.readHeader(in: folder),
            let rotation = (try? JSONCodec.decode(VaultHeader.self, from: header))?.rotation
        {
            return rotation.itemCount
        }
        return try countItems(in: folder)
    }

    private static func countItems(in folder: StoreFolder) throws(CryptStoreError) -> Int {
        do {
            return try folder.list().filter(isItemFile).count
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
    }
}
