internal import ForgeCore
internal import Foundation

/// A vault an ``EncryptedFileCrypt`` has opened: its header, the header's bytes, and the keys derived from it.
///
/// Opening checks the master key against the header before it changes anything, so a failed open of an
/// existing vault leaves the disk as it found it. Writing an item checks, through the same open folder, that
/// the folder holds this vault's header before and after the write: a header removed (alone or with its
/// folder) is written back, and a folder that now holds another vault is refused, so no item is ever left
/// where it cannot be read back.
struct OpenedVault: Sendable {
    /// The header this store opened or created.
    let header: VaultHeader
    /// The header's bytes as this store read or wrote them: what a restored header is written with.
    let headerBytes: Data
    /// The keys derived from the master key and the header.
    let keys: VaultKeys
    /// The Data Protection level of the folder and each file.
    let protection: FileProtection

    /// Opens the vault in the folder at `folder`, or creates it when the folder holds no vault.
    ///
    /// - Throws: the ``CryptStoreError`` of ``EncryptedFileCrypt/init(directory:namespace:masterKey:fileProtection:)``.
    init(atPath folder: String, masterKey: MasterKey, protection: FileProtection) throws(CryptStoreError) {
        // A second pass only follows a header that another process created at the same moment.
        for _ in 0..<2 {
            if let (header, bytes) = try Self.readHeader(inFolder: folder) {
                let key = try masterKey.keyBytes(forVaultWith: header, vaultPath: folder)
                let keys = VaultKeys(masterKey: key, vaultID: header.vaultID)
                guard keys.matches(keyCheck: header.keyCheck) else {
                    throw .wrongMasterKey(path: folder, createdWith: header.masterKey)
                }
                self.init(header: header, headerBytes: bytes, keys: keys, protection: protection)
                try secureFolder(folder)
                FileSystem.removeLeftoversOnce(inFolder: folder)
                masterKey.removeKeyFileLeftovers()
                return
            }
            if let created = try Self.create(inFolder: folder, masterKey: masterKey, protection: protection) {
                self = created
                FileSystem.removeLeftoversOnce(inFolder: folder)
                masterKey.removeKeyFileLeftovers()
                return
            }
        }
        throw .openFailed(path: folder, underlying: "the vault header changed while it was being created")
    }

    private init(header: VaultHeader, headerBytes: Data, keys: VaultKeys, protection: FileProtection) {
        self.header = header
        self.headerBytes = headerBytes
        self.keys = keys
        self.protection = protection
    }

    /// Creates a new vault in `folder`; nil when another opener created one first (read it instead).
    ///
    /// A folder this creates is removed again when creating the vault fails (only while it is empty).
    private static func create(
        inFolder folder: String,
        masterKey: MasterKey,
        protection: FileProtection
    ) throws(CryptStoreError) -> OpenedVault? {
        try refuseItemsWithoutHeader(inFolder: folder)
        let createdFolder: Bool
        do {
            createdFolder = try FileSystem.status(atPath: folder) == nil
        } catch {
            throw CryptStoreError(error, opening: folder)
        }
        do throws(CryptStoreError) {
            let (key, passphrase) = try masterKey.keyForNewVault(vaultPath: folder)
            let vaultID = CryptoPrimitives.randomBytes(count: VaultHeader.vaultIDByteCount)
            let keys = VaultKeys(masterKey: key, vaultID: vaultID)
            let header = VaultHeader(
                format: VaultHeader.currentFormat,
                vaultID: vaultID,
                masterKey: masterKey.kind,
                passphrase: passphrase,
                keyCheck: keys.keyCheck
            )
            let bytes: Data
            do {
                bytes = try JSONCodec.encode(header)
            } catch {
                throw .openFailed(path: folder, underlying: .other(String(describing: error)))
            }
            let vault = OpenedVault(header: header, headerBytes: bytes, keys: keys, protection: protection)
            // Never replaces a header: a concurrent opener's header wins and this one reads it.
            return try vault.writeHeader(inFolder: folder) ? vault : nil
        } catch {
            // Only an empty folder is removed: a concurrent opener's vault is never touched.
            if createdFolder { FileSystem.removeEmptyDirectory(atPath: folder) }
            throw error
        }
    }

    /// Creates the owner-only folder when missing and writes the header into it, unless one is there.
    ///
    /// - Returns: false when the folder already holds a header.
    private func writeHeader(inFolder folder: String) throws(CryptStoreError) -> Bool {
        var options = itemOptions
        options.replaceExisting = false
        // A second pass follows a folder removed between its creation and the write (by a failed concurrent open).
        for _ in 0..<2 {
            try secureFolder(folder)
            do {
                try FileSystem.writeAtomically(
                    headerBytes,
                    named: VaultHeader.fileName,
                    inFolder: folder,
                    options: options
                )
                return true
            } catch  where error.isAlreadyExists {
                return false
            } catch  where error.code == ENOENT {
                continue
            } catch {
                throw CryptStoreError(error, opening: folder)
            }
        }
        throw .openFailed(path: folder, underlying: "the vault folder vanished while its header was written")
    }

    /// Creates the folder owner-only, or sets an existing folder's permissions back to owner-only.
    private func secureFolder(_ folder: String) throws(CryptStoreError) {
        do {
            try FileSystem.createDirectory(
                atPath: folder,
                exactPermissions: EncryptedFileCrypt.folderPermissions,
                protection: protection
            )
        } catch {
            throw CryptStoreError(error, opening: folder)
        }
    }

    /// How item files are written: owner-only, flushed, into the vault folder only (never creating it).
    private var itemOptions: FileSystem.WriteOptions {
        var options = FileSystem.WriteOptions()
        options.permissions = mode_t(EncryptedFileCrypt.filePermissions)
        options.directoryPermissions = mode_t(EncryptedFileCrypt.folderPermissions)
        options.synchronize = true
        options.protection = protection
        options.createsFolders = false
        return options
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
    func writeItem(_ file: Data, named name: String, inFolder folder: String, for key: String) throws(CryptStoreError) {
        let vaultFolder = FileSystem.ConfinedFolder(path: folder, options: itemOptions)
        // Further passes follow a header or folder that was removed, and restored here.
        for _ in 0..<3 {
            let result: FileSystem.ConfinedFolder.GuardedWrite
            do {
                result = try vaultFolder.writeFile(file, named: name, ifFileNamed: VaultHeader.fileName) {
                    isThisVaultsHeader($0)
                }
            } catch  where error.code == ENOENT {
                // The folder is gone, or went while the item was written into it.
                try restoreHeader(inFolder: folder, for: key)
                continue
            } catch {
                throw CryptStoreError(error, writing: key)
            }
            switch result {
            case .written:
                return
            case .guardMissing:
                try restoreHeader(inFolder: folder, for: key)
            case .guardRejected:
                throw .vaultReplaced(path: folder)
            }
        }
        throw .writeFailed(key: key, underlying: "the vault folder '\(folder)' kept vanishing during the write")
    }

    /// Throws ``CryptStoreError/vaultReplaced(path:)`` when the folder holds another vault's header.
    ///
    /// A folder without a header, or no folder, passes: what it holds cannot belong to another vault.
    func checkHeader(inFolder folder: String) throws(CryptStoreError) {
        let bytes: Data
        do {
            bytes = try FileSystem.readFile(named: VaultHeader.fileName, inFolder: folder)
        } catch  where error.isNotFound {
            return
        } catch {
            throw CryptStoreError(error, opening: folder)
        }
        guard isThisVaultsHeader(bytes) else { throw .vaultReplaced(path: folder) }
    }

    /// Whether `bytes`, read from a vault folder, are this vault's header.
    private func isThisVaultsHeader(_ bytes: Data) -> Bool {
        if bytes == headerBytes { return true }
        guard let found = try? JSONCodec.decode(VaultHeader.self, from: bytes) else { return false }
        return found.vaultID == header.vaultID && found.keyCheck == header.keyCheck
    }

    /// Writes the header back into `folder`, creating the folder when it is gone.
    private func restoreHeader(inFolder folder: String, for key: String) throws(CryptStoreError) {
        do throws(CryptStoreError) {
            _ = try writeHeader(inFolder: folder)
        } catch {
            throw .writeFailed(key: key, underlying: error.reason ?? .other(error.description))
        }
    }
}

// MARK: Reading the header

extension OpenedVault {
    /// The vault's header and its bytes, or nil when the folder, or the header, does not exist.
    private static func readHeader(inFolder folder: String) throws(CryptStoreError) -> (VaultHeader, Data)? {
        let data: Data
        do {
            data = try FileSystem.readFile(named: VaultHeader.fileName, inFolder: folder)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw CryptStoreError(error, opening: folder)
        }
        guard let header = try? JSONCodec.decode(VaultHeader.self, from: data) else {
            throw .corruptVault(path: folder, reason: "\(VaultHeader.fileName) is not a vault header")
        }
        if let problem = header.problem { throw .corruptVault(path: folder, reason: problem) }
        return (header, data)
    }

    /// Refuses to start a new vault in a folder that holds items: their header is gone, and a new one would
    /// make them unreadable for good.
    private static func refuseItemsWithoutHeader(inFolder folder: String) throws(CryptStoreError) {
        let entries: [FileSystem.Entry]
        do {
            entries = try FileSystem.listDirectory(atPath: folder)
        } catch {
            throw CryptStoreError(error, opening: folder)
        }
        let itemCount = entries.filter(EncryptedFileCrypt.isItemFile).count
        guard itemCount == 0 else {
            throw .corruptVault(
                path: folder,
                reason: "\(VaultHeader.fileName) is missing, so its \(itemCount) item(s) cannot be opened"
            )
        }
    }
}
