public import Foundation
internal import ForgeCore

/// A ``CryptStoring`` that keeps each secret in its own encrypted file: a vault that works on every
/// platform.
///
/// It is the store for Linux servers and tools, and a choice on Apple platforms where the Keychain does
/// not fit (a macOS tool without a signed keychain access group, secrets to move with a data folder).
///
/// ```swift
/// let secrets = try EncryptedFileCrypt(
///     directory: .custom(dataFolder),
///     namespace: "secrets",
///     masterKey: .keyFile(dataFolder.appendingPathComponent("master.key"))
/// )
/// try secrets.set("s3cr3t", for: AuthKeys.accessToken)
/// ```
///
/// ## The vault
/// The vault is the folder `{directory}/{namespace}/`. It holds `vault.json`, which has no secret (a
/// random vault identifier, the kind of master key, the passphrase parameters, a key-check value), and one
/// file per item, named by a keyed hash of its key: no key name and no secret is ever written in the clear.
/// Each item is sealed with AES-256-GCM, the key name sealed inside with the secret (so `keys()` can list
/// the keys) and the item's file name bound as authenticated data, so an item file copied into another
/// item's place fails to open. See ``MasterKey`` for the kinds of master key.
///
/// ## Sealing, below the typed API
/// The vault is a ``CryptBackend`` that seals: the library's typed API turns a value into its bytes (as for every
/// store), and the vault seals those bytes into the item it writes, and opens the item it reads back into them. The
/// sealing sits below the contract, not above it, because keeping secrets safe at rest is each store's own part (the
/// Keychain's items are protected by the system, ``InMemoryCrypt`` keeps them in the clear): above it, every store
/// shares one coding of values and one set of rules, and the item format, its tamper detection and its sealed key
/// names stay in one place, ``SecretSealer``, which `PostgresCrypt` seals its rows with too.
///
/// ## Failures
/// Opening the vault with another master key than it was made with throws
/// ``CryptStoreError/wrongMasterKey(path:createdWith:)``, naming the kind of key the vault was made with,
/// before anything is written; an open that fails changes nothing on disk. With the right key, an item
/// that fails to authenticate makes `get(_:)` throw ``CryptStoreError/tamperedItem(key:)``; the file is
/// left as it is for inspection, and never reads as missing. No symbolic link in the vault folder is ever
/// followed: a link in an item's place is not an item (`get(_:)` returns nil, `contains(_:)` and
/// ``itemCount()`` do not count it, `deleteAll()` removes the link itself).
///
/// ## What the vault detects, and what it does not
/// Detected, as ``CryptStoreError/tamperedItem(key:)``: any change to an item's bytes (a flipped bit, a
/// truncated or extended file, another format byte), an item file moved or copied into another key's place,
/// and an item copied from another vault. Not detected: each item is authenticated on its own, so an
/// item replaced by an older copy of itself, or a deleted item restored from a backup, reads back its older
/// secret; and a whole vault folder rolled back to an earlier copy opens as it was then. Whoever can write
/// the folder can also delete items, which reads as missing. Detecting rollback would take a signed record
/// of every item's version, written and flushed beside each item on every `set`; keep revocation lists on a
/// server, not in the vault, where that matters.
///
/// ## Changing the master key
/// ``rotateMasterKey(to:progress:)`` seals every item again under a new key file, symmetric key or passphrase, while
/// readers keep working; a crash at any point leaves every secret readable, and running it again finishes it. See
/// <doc:RotatingTheMasterKey>.
///
/// ## Permissions and durability
/// The folder is `0700` and every file `0600`, also after an item is replaced: a write goes to a new
/// owner-only temporary file that is renamed over the item. A vault folder that already exists with other
/// permissions (for example restored from a backup) is set back to `0700` when the store opens; if that
/// is not allowed, opening fails. Writes are flushed with `fsync` before the rename, so a crash or a power
/// loss keeps the old secret or the new one.
public struct EncryptedFileCrypt: Sendable {
    /// The base folder the vault folder lives in.
    public let directory: StorageDirectory
    /// The name of the vault folder inside ``directory``.
    public let namespace: String
    /// The Data Protection level of the folder and each file; no effect on Linux.
    public let fileProtection: FileProtection
    /// The vault folder: ``directory``, then the escaped ``namespace``.
    public let folderURL: URL

    /// The vault as this store and its copies have it open: a rotation through any of them opens it with the new
    /// key for all.
    let opened: LockedState<OpenedVault>
    /// The header this store opened the vault with, its folder, and the keys derived from it; each call reads it once,
    /// so that one call uses one key, whatever a rotation does meanwhile.
    var vault: OpenedVault { opened.withLock { $0 } }

    /// The permission bits of the vault folder.
    static let folderPermissions: UInt16 = 0o700
    /// The permission bits of every file in the vault.
    static let filePermissions: UInt16 = 0o600

    /// Opens the vault in `{directory}/{namespace}/`, creating it when it does not exist.
    ///
    /// Opening reads or creates the master key (stretching a passphrase, which takes a moment), checks it
    /// against the vault and secures the folder's permissions; the first open in a process also starts removing, in
    /// the background, temporary files left by crashed writers. Open the store once and share it: it is a
    /// `Sendable` value.
    ///
    /// An open that fails changes nothing on disk: the master key is checked before the folder's
    /// permissions are corrected, and an existing vault is never given a new key file. A new vault whose
    /// creation fails leaves no folder behind; a key file it created stays, for the next open to use.
    ///
    /// - Parameters:
    ///   - directory: The base folder. Defaults to `StorageDirectory.applicationSupport`.
    ///   - namespace: The vault folder's name. Any string: it is escaped so it never leaves `directory`.
    ///   - masterKey: The key that opens the vault; see ``MasterKey``.
    ///   - fileProtection: The Data Protection level on Apple platforms; no effect on Linux.
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:createdWith:)`` when the vault was made with another
    ///   master key, ``CryptStoreError/keyFileNotFound(path:vaultPath:)`` when the key file of an existing
    ///   vault is missing, ``CryptStoreError/insecureKeyFile(path:permissions:)``,
    ///   ``CryptStoreError/invalidMasterKey(reason:)``, ``CryptStoreError/corruptVault(path:reason:)`` or
    ///   ``CryptStoreError/openFailed(path:underlying:)``.
    public init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        masterKey: MasterKey,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication
    ) throws {
        self.directory = directory
        self.namespace = namespace
        self.fileProtection = fileProtection
        // Owner-only, flushed, and never created by an item's write: only opening makes the folder.
        let folder = StoreFolder(directory: directory, namespace: namespace, protection: fileProtection) {
            $0.filePermissions = Self.filePermissions
            $0.folderPermissions = Self.folderPermissions
            $0.durability = .flushed
            $0.createsFolder = false
        }
        self.folderURL = folder.url
        try masterKey.validate()
        self.opened = LockedState(try OpenedVault(in: folder, masterKey: masterKey))
    }

    /// The file that holds (or would hold) the item stored under `key`.
    ///
    /// Its name is a keyed hash: without the master key, nobody can tell which key a file belongs to.
    public func fileURL<Value>(for key: CryptKey<Value>) -> URL {
        folderURL.appendingPathComponent(vault.keys.item(for: key.key).fileName, isDirectory: false)
    }

    private var folder: StoreFolder { vault.folder }

    /// Whether `entry` is an item file: a regular file with an item's name.
    static func isItemFile(_ entry: FolderEntry) -> Bool {
        entry.kind == .file && hasItemName(entry)
    }

    /// Whether `entry` has the name of an item file, whatever it is.
    ///
    /// An item's name is a keyed hash in lowercase hex (64 digits) and `VaultKeys.itemExtension`; other files (a
    /// `backup.secret` someone left) are not the vault's.
    static func hasItemName(_ entry: FolderEntry) -> Bool {
        guard entry.kind != .folder, entry.name.hasSuffix(VaultKeys.itemExtension) else { return false }
        return SecretSealer.isItemName(entry.name.dropLast(VaultKeys.itemExtension.count))
    }
}

extension EncryptedFileCrypt: CryptStoring, CryptBackend {
    /// The secret stored under `name`, opened from its sealed item, or nil when the vault holds no item for it.
    ///
    /// While the vault's master key is being changed, a store opened with the new key reads an item not resealed yet
    /// under the old key (see ``rotateMasterKey(to:progress:)``).
    ///
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` when the item fails to authenticate,
    ///   ``CryptStoreError/masterKeyRotated(path:)`` when no item is found because the vault has moved to another
    ///   master key, or ``CryptStoreError/readFailed(key:underlying:)``.
    public func storedSecret(named name: String) throws -> Data? {
        // One look-up of the key's item finds the file and opens it; then, during a rotation, the old key's item.
        let vault = vault
        for lookup in vault.sealer.lookups(for: name) {
            if let file = try readItem(lookup.item.vaultItem.fileName, for: name) { return try lookup.open(file) }
        }
        try vault.checkKeyAfterMiss(of: name)
        return nil
    }

    /// The bytes of the item file `fileName`, or nil when there is none.
    private func readItem(_ fileName: String, for name: String) throws(CryptStoreError) -> Data? {
        do {
            return try folder.read(fileName)
        } catch  where error.isNotFound || error.isSymbolicLink {
            // A symbolic link is never followed: it is not an item, as `contains` and `itemCount()` agree.
            return nil
        } catch {
            throw CryptStoreError(error, reading: name)
        }
    }

    /// Seals `secret` and stores it under `name`, atomically, in an owner-only file.
    ///
    /// Before each write the vault's header is checked: a header removed since the store opened (with the
    /// whole folder, by a cleanup job) is restored as this store knows it, so a secret is never written where
    /// it could not be read back; a folder that now holds another vault fails the write.
    ///
    /// - Throws: ``CryptStoreError/writeFailed(key:underlying:)``, ``CryptStoreError/vaultReplaced(path:)``, or
    ///   ``CryptStoreError/encodingFailed(key:underlying:)`` for a key name too long for an item; the previous
    ///   secret is kept.
    public func store(_ secret: Data, named name: String) throws {
        // One look-up of the key's item seals the secret and names its file.
        let vault = vault
        let item = vault.sealer.item(for: name)
        let file = try vault.sealer.seal(secret, as: item)
        try vault.writeItem(file, named: item.vaultItem.fileName, for: name)
    }

    /// Removes the item stored under `name`; succeeds when there is none.
    ///
    /// - Throws: ``CryptStoreError/removeFailed(key:underlying:)`` when the file cannot be removed,
    ///   ``CryptStoreError/rotationInProgress(path:)`` while the master key is being changed (nothing is removed),
    ///   ``CryptStoreError/masterKeyRotated(path:)`` or ``CryptStoreError/vaultReplaced(path:)``.
    public func removeSecret(named name: String) throws {
        let vault = vault
        try vault.removing(for: name) { () throws(CryptStoreError) in
            do throws(FileSystemError) {
                try folder.remove(vault.keys.item(for: name).fileName)
            } catch  where error.isMissing {
                // Nothing stored: done.
            } catch {
                throw CryptStoreError(error, removing: name)
            }
        }
    }

    /// Whether the vault holds an item for `name`.
    ///
    /// The item is not opened: `get(_:)` tells whether it is intact. A symbolic link in the item's place is not an
    /// item.
    ///
    /// - Throws: ``CryptStoreError/readFailed(key:underlying:)`` when the vault cannot tell, for example
    ///   when its folder cannot be read: that never reads as "not stored"; ``CryptStoreError/masterKeyRotated(path:)``
    ///   when no item is found because the vault has moved to another master key.
    public func hasSecret(named name: String) throws -> Bool {
        let vault = vault
        var fileNames = [vault.keys.item(for: name).fileName]
        if let old = vault.sealer.oldKeySealer { fileNames.append(old.keys.item(for: name).fileName) }
        for fileName in fileNames {
            do {
                if try folder.status(of: fileName)?.kind == .file { return true }
            } catch {
                throw CryptStoreError(error, reading: name)
            }
        }
        try vault.checkKeyAfterMiss(of: name)
        return false
    }

    /// Removes every item of the vault; the vault itself (its header) stays, so the store remains usable.
    ///
    /// - Throws: ``CryptStoreError/removeAllFailed(underlying:)`` when an item cannot be removed,
    ///   ``CryptStoreError/rotationInProgress(path:)`` while the master key is being changed (nothing is removed),
    ///   ``CryptStoreError/masterKeyRotated(path:)``, or ``CryptStoreError/vaultReplaced(path:)`` when the folder now
    ///   holds another vault.
    public func removeAll() throws {
        // A stale store never removes the items of a vault created since in its folder.
        try vault.removing(for: nil) { () throws(CryptStoreError) in
            do throws(FileSystemError) {
                // Links with an item's name are removed too (never what they lead to); they are not items.
                for entry in try folder.list() where Self.hasItemName(entry) {
                    do throws(FileSystemError) {
                        try folder.remove(entry.name)
                    } catch  where error.isMissing {}
                }
            } catch {
                throw CryptStoreError(error, removing: nil)
            }
        }
    }
}
