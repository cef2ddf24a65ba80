internal import ForgeCore
internal import Foundation

/// A vault an ``EncryptedFileCrypt`` has opened: its folder, and the sealer of its header and master key.
///
/// Opening checks the master key against the header before it changes anything, so a failed open of an
/// existing vault leaves the disk as it found it. Writing an item checks, through the same open folder, that
/// the folder holds this vault's header before and after the write: a header removed (alone or with its
/// folder) is written back, and a folder that now holds another vault is refused, so no item is ever left
/// where it cannot be read back.
struct OpenedVault: Sendable {
    /// The vault's folder: owner-only, flushed, never created by an item's write.
    let folder: StoreFolder
    /// The header this store opened or created, and the keys derived from it and the master key.
    let sealer: SecretSealer

    /// The keys derived from the master key and the header.
    var keys: VaultKeys { sealer.keys }
    /// The header's bytes as this store read or wrote them: what a restored header is written with.
    var headerBytes: Data { sealer.header }

    /// Opens the vault in `folder`, or creates it when the folder holds no vault.
    ///
    /// - Throws: the ``CryptStoreError`` of ``EncryptedFileCrypt/init(directory:namespace:masterKey:fileProtection:)``.
    init(in folder: StoreFolder, masterKey: MasterKey) throws(CryptStoreError) {
        // A second pass only follows a header that another process created at the same moment.
        for _ in 0..<2 {
            if let bytes = try Self.readHeader(in: folder) {
                let sealer = try SecretSealer(
                    masterKey: masterKey,
                    header: bytes,
                    location: folder.path,
                    headerName: VaultHeader.fileName
                )
                self.init(folder: folder, sealer: sealer)
                try secureFolder()
                folder.removeLeftoversOnce()
                masterKey.removeKeyFileLeftovers()
                return
            }
            if let created = try Self.create(in: folder, masterKey: masterKey) {
                self = created
                folder.removeLeftoversOnce()
                masterKey.removeKeyFileLeftovers()
                return
            }
        }
        throw .openFailed(path: folder.path, underlying: "the vault header changed while it was being created")
    }

    private init(folder: StoreFolder, sealer: SecretSealer) {
        self.folder = folder
        self.sealer = sealer
    }

    /// Creates a new vault in `folder`; nil when another opener created one first (read it instead).
    ///
    /// A folder this creates is removed again when creating the vault fails (only while it is empty).
    private static func create(in folder: StoreFolder, masterKey: MasterKey) throws(CryptStoreError) -> OpenedVault? {
        try refuseItemsWithoutHeader(in: folder)
        var createdFolder = false
        do throws(CryptStoreError) {
            let sealer = try SecretSealer(newHeaderFor: masterKey, location: folder.path)
            let vault = OpenedVault(folder: folder, sealer: sealer)
            createdFolder = try vault.secureFolder()
            // Never replaces a header: a concurrent opener's header wins and this one reads it.
            return try vault.writeHeader() ? vault : nil
        } catch {
            // Only an empty folder is removed: a concurrent opener's vault is never touched.
            if createdFolder { folder.removeIfEmpty() }
            throw error
        }
    }

    /// Creates the owner-only folder when missing and writes the header into it, unless one is there.
    ///
    /// - Returns: false when the folder already holds a header.
    private func writeHeader() throws(CryptStoreError) -> Bool {
        // A second pass follows a folder removed between its creation and the write (by a failed concurrent open).
        for _ in 0..<2 {
            try secureFolder()
            do {
                try folder.write(headerBytes, as: VaultHeader.fileName, replacing: false)
                return true
            } catch  where error.isAlreadyExists {
                return false
            } catch  where error.isMissing {
                continue
            } catch {
                throw CryptStoreError(error, opening: folder.path)
            }
        }
        throw .openFailed(path: folder.path, underlying: "the vault folder vanished while its header was written")
    }

    /// Creates the folder owner-only, or sets an existing folder's permissions back to owner-only.
    ///
    /// - Returns: Whether the folder was created.
    @discardableResult
    private func secureFolder() throws(CryptStoreError) -> Bool {
        do {
            return try folder.create(exactPermissions: true)
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
    }
}

// MARK: Writing items

extension OpenedVault {
    /// Writes an item's sealed `file` as `name` in the vault folder, when the folder holds this vault's header.
    ///
    /// The header is checked and the item written through one descriptor of the folder, so an item never lands
    /// in another vault created at the same path meanwhile. A header removed since the store opened (alone or
    /// with its folder) is written back as this store knows it, and the write goes again.
    ///
    /// - Throws: ``CryptStoreError/vaultReplaced(path:)`` when the folder holds another vault, or
    ///   ``CryptStoreError/writeFailed(key:underlying:)``, naming `key`.
    func writeItem(_ file: Data, named name: String, for key: String) throws(CryptStoreError) {
        // Further passes follow a header or folder that was removed, and restored here.
        for _ in 0..<3 {
            let result: StoreFolder.GuardedWrite
            do {
                result = try folder.write(file, as: name, ifFileNamed: VaultHeader.fileName) { isThisVaultsHeader($0) }
            } catch  where error.isMissing {
                // The folder is gone, or went while the item was written into it.
                try restoreHeader(for: key)
                continue
            } catch {
                throw CryptStoreError(error, writing: key)
            }
            switch result {
            case .written:
                return
            case .guardMissing:
                try restoreHeader(for: key)
            case .guardRejected:
                throw .vaultReplaced(path: folder.path)
            }
        }
        throw .writeFailed(key: key, underlying: "the vault folder '\(folder.path)' kept vanishing during the write")
    }

    /// Throws ``CryptStoreError/vaultReplaced(path:)`` when the folder holds another vault's header.
    ///
    /// A folder without a header, or no folder, passes: what it holds cannot belong to another vault.
    func checkHeader() throws(CryptStoreError) {
        let bytes: Data
        do {
            bytes = try folder.read(VaultHeader.fileName)
        } catch  where error.isNotFound {
            return
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        guard isThisVaultsHeader(bytes) else { throw .vaultReplaced(path: folder.path) }
    }

    /// Whether `bytes`, read from a vault folder, are this vault's header.
    private func isThisVaultsHeader(_ bytes: Data) -> Bool {
        sealer.isSameVault(asHeader: bytes)
    }

    /// Writes the header back into `folder`, creating the folder when it is gone.
    private func restoreHeader(for key: String) throws(CryptStoreError) {
        do throws(CryptStoreError) {
            _ = try writeHeader()
        } catch {
            throw .writeFailed(key: key, underlying: error.reason ?? .other(error.description))
        }
    }
}

// MARK: Reading the header

extension OpenedVault {
    /// The bytes of the vault's header, or nil when the folder, or the header, does not exist.
    private static func readHeader(in folder: StoreFolder) throws(CryptStoreError) -> Data? {
        let data: Data
        do {
            data = try folder.read(VaultHeader.fileName)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        return data
    }

    /// Refuses to start a new vault in a folder that holds items: their header is gone, and a new one would
    /// make them unreadable for good.
    private static func refuseItemsWithoutHeader(in folder: StoreFolder) throws(CryptStoreError) {
        let entries: [FolderEntry]
        do {
            entries = try folder.list()
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        let itemCount = entries.filter(EncryptedFileCrypt.isItemFile).count
        guard itemCount == 0 else {
            throw .corruptVault(
                path: folder.path,
                reason: "\(VaultHeader.fileName) is missing, so its \(itemCount) item(s) cannot be opened"
            )
        }
    }
}
