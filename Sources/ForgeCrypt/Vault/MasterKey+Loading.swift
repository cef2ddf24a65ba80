internal import ForgeCore
internal import Foundation

extension MasterKey {
    /// Refuses a master key that can never open a vault, before anything is read or created.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for an empty passphrase or a symmetric key
    ///   shorter than 128 bits.
    func validate() throws(CryptStoreError) {
        switch self {
        case .keyFile:
            return
        case .symmetric(let key):
            guard CryptoPrimitives.byteCount(of: key) >= 16 else {
                throw .invalidMasterKey(reason: "a symmetric master key needs at least 128 bits")
            }
        case .passphrase(let passphrase):
            guard !passphrase.isEmpty else { throw .invalidMasterKey(reason: "the passphrase is empty") }
        }
    }

    /// The key bytes of this master key, when it is the key `record` describes (of a header at `vaultPath`).
    ///
    /// Nothing is created, and the key is not checked against the record's key-check value.
    ///
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:createdWith:)`` naming the record's kind when a passphrase is
    ///   given for a key the record says is not one or the reverse, ``CryptStoreError/keyFileNotFound(path:vaultPath:)``,
    ///   or the errors of the key file.
    func keyBytes(for record: VaultKeyRecord, vaultPath: String) throws(CryptStoreError) -> SymmetricKey {
        let wrongKind = CryptStoreError.wrongMasterKey(path: vaultPath, createdWith: record.kind)
        switch self {
        case .keyFile(let url):
            guard record.passphrase == nil else { throw wrongKind }
            let path = url.standardizedFileURL.path
            guard let key = try Self.readKeyFile(atPath: path) else {
                throw .keyFileNotFound(path: path, vaultPath: vaultPath)
            }
            return key
        case .symmetric(let key):
            guard record.passphrase == nil else { throw wrongKind }
            return key
        case .passphrase(let passphrase):
            guard let parameters = record.passphrase else { throw wrongKind }
            return try Self.stretch(passphrase, with: parameters, vaultPath: vaultPath)
        }
    }

    /// The key bytes and passphrase parameters for a new vault at `vaultPath`.
    ///
    /// A missing key file is created (owner-only, 32 random bytes). It stays even when creating the vault
    /// fails afterwards: a concurrent opener may already have made its vault with it, and the next open of
    /// this vault uses it.
    func keyForNewVault(
        vaultPath: String
    ) throws(CryptStoreError) -> (key: SymmetricKey, passphrase: PassphraseParameters?) {
        switch self {
        case .keyFile(let url):
            let path = url.standardizedFileURL.path
            if let key = try Self.readKeyFile(atPath: path) { return (key, nil) }
            try Self.createKeyFile(atPath: path)
            // Read back: a concurrent opener may have created the file first, and its key is the one to use.
            guard let key = try Self.readKeyFile(atPath: path) else {
                throw .openFailed(path: path, underlying: "the key file vanished while it was being created")
            }
            return (key, nil)
        case .symmetric(let key):
            return (key, nil)
        case .passphrase(let passphrase):
            let parameters = PassphraseParameters.makeNew()
            return (try Self.stretch(passphrase, with: parameters, vaultPath: vaultPath), parameters)
        }
    }

    private static func stretch(
        _ passphrase: String,
        with parameters: PassphraseParameters,
        vaultPath: String
    ) throws(CryptStoreError) -> SymmetricKey {
        do {
            return try parameters.deriveKey(from: passphrase)
        } catch {
            throw .openFailed(path: vaultPath, underlying: .other(String(describing: error)))
        }
    }

    /// Reads the key file at `path`; nil when it does not exist.
    ///
    /// - Throws: ``CryptStoreError/insecureKeyFile(path:permissions:)`` when group or others may use it,
    ///   ``CryptStoreError/invalidMasterKey(reason:)`` when it does not hold 32 bytes, or
    ///   ``CryptStoreError/openFailed(path:underlying:)``.
    private static func readKeyFile(atPath path: String) throws(CryptStoreError) -> SymmetricKey? {
        // The key file is the caller's own path, outside any store: a link to it (a mounted secret) is followed.
        let file: (data: Data, permissions: UInt16)
        do {
            let descriptor = try Descriptor(opening: path, .read)
            // Both from one open file: the bits describe the very file whose bytes are read.
            file = (try descriptor.readAll(), try descriptor.status().permissions)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw CryptStoreError(error, opening: path)
        }
        guard file.permissions & FileStatus.groupAndOtherPermissions == 0 else {
            throw .insecureKeyFile(path: path, permissions: file.permissions)
        }
        guard file.data.count == CryptoPrimitives.keyByteCount else {
            throw .invalidMasterKey(
                reason: "the key file '\(path)' holds \(file.data.count) bytes instead of "
                    + "\(CryptoPrimitives.keyByteCount)"
            )
        }
        return CryptoPrimitives.key(file.data)
    }

    /// Removes the temporary files that crashed creators of this master key's key file left beside it.
    ///
    /// A process killed while creating the key file may have left a copy of the key in one. Called once a vault
    /// has opened with the key, so a failed open changes nothing.
    func removeKeyFileLeftovers() {
        guard case .keyFile(let url) = self else { return }
        let keyFile = url.standardizedFileURL
        StoreFolder(path: keyFile.deletingLastPathComponent().path)
            .removeOrphanedTemporaries(of: keyFile.lastPathComponent)
    }

    /// Creates a key file of random bytes at `path`, owner-only, unless one appeared there meanwhile.
    private static func createKeyFile(atPath path: String) throws(CryptStoreError) {
        var options = StoreFolder.Options()
        options.filePermissions = 0o600
        options.folderPermissions = 0o700
        options.durability = .flushed
        let keyFile = URL(fileURLWithPath: path)
        let folder = StoreFolder(path: keyFile.deletingLastPathComponent().path, options: options)
        do {
            let key = CryptoPrimitives.randomBytes(count: CryptoPrimitives.keyByteCount)
            try folder.write(key, as: keyFile.lastPathComponent, replacing: false)
        } catch  where error.isAlreadyExists {
            return
        } catch {
            throw CryptStoreError(error, opening: path)
        }
    }
}
