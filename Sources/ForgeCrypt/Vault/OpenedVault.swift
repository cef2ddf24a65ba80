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
    /// The header's bytes as this store read or wrote them, settled on this store's master key: what a restored
    /// header is written with.
    var headerBytes: Data { sealer.settledHeader }

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

    /// The vault in `folder` with `sealer`, opened already.
    init(folder: StoreFolder, sealer: SecretSealer) {
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
    /// with its folder) is written back as this store knows it, and the write goes again. The write holds the
    /// folder's shared lock, so it never overlaps a rotation of the master key, which holds it exclusively.
    ///
    /// - Throws: ``CryptStoreError/vaultReplaced(path:)`` when the folder holds another vault,
    ///   ``CryptStoreError/rotationInProgress(path:)`` while its master key is being changed,
    ///   ``CryptStoreError/masterKeyRotated(path:)`` once it was, or ``CryptStoreError/writeFailed(key:underlying:)``,
    ///   naming `key`.
    func writeItem(_ file: Data, named name: String, for key: String) throws(CryptStoreError) {
        // Further passes follow a header or folder that was removed, and restored here.
        for _ in 0..<3 {
            let result: StoreFolder.GuardedWrite
            var found = SecretSealer.HeaderMatch.same
            do {
                result = try folder.write(file, as: name, ifFileNamed: VaultHeader.fileName) { header in
                    found = sealer.match(header: header)
                    return found == .same
                }
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
                throw found.refusal(location: folder.path)
            case .locked:
                throw .rotationInProgress(path: folder.path)
            }
        }
        throw .writeFailed(key: key, underlying: "the vault folder '\(folder.path)' kept vanishing during the write")
    }

    /// Runs `change`, a removal for `key` (nil: for every key), while this process holds the folder's shared lock and
    /// the folder holds this vault's settled header (or none); does nothing when the folder is gone.
    ///
    /// - Throws: ``CryptStoreError/rotationInProgress(path:)`` while the master key is being changed, what
    ///   ``checkHeader(writing:)`` throws, the error of opening the folder as the removal's, or what `change` throws.
    func removing(
        for key: String?,
        _ change: () throws(CryptStoreError) -> Void
    ) throws(CryptStoreError) {
        let lock: Descriptor?
        do {
            lock = try folder.lockShared()
        } catch  where error.isMissing {
            // No folder: nothing to remove.
            return
        } catch {
            throw CryptStoreError(error, removing: key)
        }
        guard let lock else { throw .rotationInProgress(path: folder.path) }
        defer { withExtendedLifetime(lock) {} }
        try checkHeader(writing: true)
        try change()
    }

    /// Checks that the folder holds this vault's header, readable by this store; nil when it holds none, or no rotation.
    ///
    /// A folder without a header, or no folder, passes: what it holds cannot belong to another vault.
    ///
    /// - Parameter writing: Whether the caller writes, which must wait for a rotation under way to end.
    /// - Returns: The rotation of the master key the header records, when it records one (and `writing` is false).
    /// - Throws: ``CryptStoreError/vaultReplaced(path:)`` when the folder holds another vault's header,
    ///   ``CryptStoreError/masterKeyRotated(path:)`` when this store's key no longer opens the vault,
    ///   ``CryptStoreError/rotationInProgress(path:)`` when `writing` and a rotation is under way, or
    ///   ``CryptStoreError/openFailed(path:underlying:)``.
    @discardableResult
    func checkHeader(writing: Bool = false) throws(CryptStoreError) -> VaultRotation? {
        guard let bytes = try Self.readHeader(in: folder) else { return nil }
        let found = sealer.match(header: bytes)
        switch found {
        case .same:
            return nil
        case .rotating where !writing:
            return (try? JSONCodec.decode(VaultHeader.self, from: bytes))?.rotation
        case .rotating, .rotated, .otherVault:
            throw found.refusal(location: folder.path)
        }
    }

    /// Checks, after an item this store looked for was not there, that the vault still opens with this store's key:
    /// an item sealed under a new master key must not read as "not stored".
    ///
    /// - Throws: ``CryptStoreError/masterKeyRotated(path:)``, or ``CryptStoreError/readFailed(key:underlying:)`` naming
    ///   `key` when the header cannot be read.
    func checkKeyAfterMiss(of key: String) throws(CryptStoreError) {
        let bytes: Data
        do {
            bytes = try folder.read(VaultHeader.fileName)
        } catch  where error.isNotFound {
            return
        } catch {
            throw CryptStoreError(error, reading: key)
        }
        try sealer.checkKey(against: bytes, location: folder.path)
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
    static func readHeader(in folder: StoreFolder) throws(CryptStoreError) -> Data? {
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
