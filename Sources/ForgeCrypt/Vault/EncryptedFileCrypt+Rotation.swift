internal import ForgeCore
internal import Foundation

// Changing the master key of a vault: see the "Changing the master key" article (RotatingTheMasterKey.md) for the
// phases, what readers and writers see meanwhile, and interruptions.
extension EncryptedFileCrypt: MasterKeyRotating {
    /// Seals every item of this vault again under `newKey`, in this process, and returns the store opened with it.
    ///
    /// This store and its copies go on with `newKey` once it returns, and it returns this store; every other store
    /// still opened with the old key stops opening the vault once the rotation switches. When the vault already has
    /// `newKey` and no rotation is under way, nothing is changed; an interrupted rotation is finished first. See
    /// <doc:RotatingTheMasterKey> for the phases, what readers and writers see meanwhile, and interruptions.
    ///
    /// ```swift
    /// secrets = try secrets.rotateMasterKey(to: .passphrase(newPassphrase))
    /// ```
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
        let vault = vault
        let sealer = try vault.rotate(to: newKey, progress: progress)
        // This store and its copies go on with the new key: whoever holds one needs no new instance.
        opened.withLock { $0 = OpenedVault(folder: vault.folder, sealer: sealer) }
        return self
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
        let folder = StoreFolder(directory: directory, namespace: namespace)
        guard try holdsHeader(folder) else { throw .openFailed(path: folder.path, underlying: .notFound) }
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
}
