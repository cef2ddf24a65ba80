internal import ForgeCore
internal import Foundation

/// Changing the master key of a vault: a new key file, symmetric key or passphrase (a user changing a passphrase is
/// the app's case), while readers keep working.
///
/// ```swift
/// // An app: the user changes the passphrase.
/// let secrets = try secrets.rotateMasterKey(to: .passphrase(newPassphrase))
/// // A tool or a server, on a vault it has not opened.
/// try EncryptedFileCrypt.rotateMasterKey(
///     directory: .custom(dataFolder),
///     namespace: "secrets",
///     from: .keyFile(oldKeyURL),
///     to: .keyFile(newKeyURL)
/// )
/// ```
///
/// ## How it goes
/// Every item is sealed again under keys derived from the new master key, and the old items are removed, in three
/// phases each ending in one header written atomically and flushed:
/// 1. The header records the rotation: the new key's kind, passphrase parameters and key-check value, the old master
///    key sealed under the new one, and the number of items. Before this, every item is opened with the old key:
///    one that does not open (or that has no key name sealed in it: see ``storedNames()``) stops the rotation with
///    nothing changed.
/// 2. Each item is sealed under the new key beside the old one (its file named by the new key's hash); the copies
///    are flushed, then the header becomes the new key's, still recording the old key: the rotation has switched.
/// 3. The old key's items are removed, then the header settles on the new key alone.
///
/// ## Readers and writers meanwhile
/// Reads go on in this process and in others. Until the switch, a store opened with the old key reads every item
/// (the old items all stay until then), and one opened with the new key reads the resealed items and, through the old
/// key sealed in the header, the others. After the switch, only the new key opens the vault: a store still on the old
/// key throws ``CryptStoreError/masterKeyRotated(path:)`` where it would otherwise read "not stored", and a new open
/// with the old key throws it too. The rotation holds the vault folder's exclusive lock (`flock`) from start to end,
/// and every write and removal takes it shared without waiting: while a rotation runs, or after one was interrupted
/// until it is run again, they throw ``CryptStoreError/rotationInProgress(path:)`` and change nothing. ``itemCount()``
/// is the count the header recorded when the rotation began.
///
/// ## Interruptions
/// A crash, a power loss or a SIGKILL at any point leaves every secret readable with the old key (before the switch)
/// or the new key (from the switch on), and running the rotation again finishes it: with the same call, or with the
/// static form, which opens the vault with either key. A store opened with the new key finishes an interrupted
/// rotation before it starts another. Another rotation asked of a store on the old key, while one to another key is
/// under way and has not switched, replaces it (the old key still opens every item): its copies are removed first.
/// Two rotations never run at once: the second waits for the lock, then finds where the first left the vault.
///
/// ## Costs
/// Each item is read twice and written once, then removed; the folder holds both copies until the end. A passphrase
/// is stretched for the new key (and, to tell whether it is the current one, with the vault's parameters too).
extension EncryptedFileCrypt {
    /// Seals every item of this vault again under `newKey`, in this process, and returns the store opened with it.
    ///
    /// This store, and every other store still opened with the old key, stops opening the vault once the rotation
    /// switches: use the store returned. When the vault already has `newKey` and no rotation is under way, nothing is
    /// changed and the store returned is opened with it; an interrupted rotation is finished first. See
    /// ``EncryptedFileCrypt`` for the phases, what readers see meanwhile, and interruptions.
    ///
    /// - Parameters:
    ///   - newKey: The new master key. A key file that does not exist is created, owner-only; a passphrase gets a
    ///     new salt.
    ///   - progress: Told each step, on the calling thread.
    /// - Returns: The store, opened with `newKey`.
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for a new key that cannot be used (or is the one a
    ///   key file or symmetric key vault already has), the errors of a new key file,
    ///   ``CryptStoreError/tamperedItem(key:)`` naming the item's file when an item opens with neither key,
    ///   ``CryptStoreError/encodingFailed(key:underlying:)`` for an item of the vault's first format (set its key
    ///   again first), ``CryptStoreError/rotationInProgress(path:)`` when a rotation to another key is under way
    ///   that this store cannot replace, ``CryptStoreError/masterKeyRotated(path:)`` when this store's key no longer
    ///   opens the vault, ``CryptStoreError/vaultReplaced(path:)``, or the failures of the files as
    ///   ``CryptStoreError/openFailed(path:underlying:)``, ``CryptStoreError/writeFailed(key:underlying:)`` and
    ///   ``CryptStoreError/removeAllFailed(underlying:)``. Items that fail to open stop the rotation before anything
    ///   changes; a failure later leaves it to be run again.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws(CryptStoreError) -> EncryptedFileCrypt {
        try newKey.validate()
        let sealer = try vault.rotate(to: newKey, progress: progress)
        return EncryptedFileCrypt(self, sealer: sealer)
    }

    /// Changes the master key of the vault of `namespace` in `directory` from `oldKey` to `newKey`, or finishes a
    /// rotation to `newKey` that was interrupted, and returns the store opened with `newKey`.
    ///
    /// Run it again after a crash or a kill: it opens the vault with `oldKey`, or, once the rotation has switched (or
    /// ended), with `newKey`, and goes on from where the rotation stopped. A vault that already has `newKey` is left
    /// as it is. See ``rotateMasterKey(to:progress:)``.
    ///
    /// ```swift
    /// try EncryptedFileCrypt.rotateMasterKey(
    ///     directory: .custom(dataFolder),
    ///     namespace: "secrets",
    ///     from: .passphrase(old),
    ///     to: .passphrase(new)
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The base folder.
    ///   - namespace: The vault's namespace.
    ///   - oldKey: The vault's master key.
    ///   - newKey: The new master key.
    ///   - fileProtection: The Data Protection level of the store returned; no effect on Linux.
    ///   - progress: Told each step, on the calling thread.
    /// - Returns: The store, opened with `newKey`.
    /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` with `FailureReason.notFound` when there is no vault
    ///   (none is created), the error of opening it with `oldKey` when neither key opens it (a wrong old key:
    ///   ``CryptStoreError/wrongMasterKey(path:createdWith:)``, nothing changed), or the errors of
    ///   ``rotateMasterKey(to:progress:)``.
    @discardableResult
    public static func rotateMasterKey(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        from oldKey: MasterKey,
        to newKey: MasterKey,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws(CryptStoreError) -> EncryptedFileCrypt {
        guard vaultExists(directory: directory, namespace: namespace) else {
            let folder = StoreFolder(directory: directory, namespace: namespace)
            throw .openFailed(path: folder.path, underlying: .notFound)
        }
        let open = { (key: MasterKey) throws(CryptStoreError) -> EncryptedFileCrypt in
            do {
                return try EncryptedFileCrypt(
                    directory: directory,
                    namespace: namespace,
                    masterKey: key,
                    fileProtection: fileProtection
                )
            } catch let error as CryptStoreError {
                throw error
            } catch {
                throw .openFailed(path: namespace, underlying: .other(String(describing: error)))
            }
        }
        let store: EncryptedFileCrypt
        do {
            store = try open(oldKey)
        } catch {
            switch error {
            case .wrongMasterKey, .masterKeyRotated, .keyFileNotFound:
                // Switched or ended since: the new key opens the vault, and finishes what is left.
                guard let opened = try? open(newKey) else { throw error }
                store = opened
            default:
                throw error
            }
        }
        return try store.rotateMasterKey(to: newKey, progress: progress)
    }

    /// `store`, on `sealer`: the same folder, opened with another key.
    private init(_ store: EncryptedFileCrypt, sealer: SecretSealer) {
        self.directory = store.directory
        self.namespace = store.namespace
        self.fileProtection = store.fileProtection
        self.folderURL = store.folderURL
        self.vault = OpenedVault(folder: store.vault.folder, sealer: sealer)
    }
}
