internal import ForgeCore
internal import Foundation

extension MasterKey {
    /// The passphrase parameters a new vault opened with this master key stores: fresh ones for a
    /// passphrase, nil for the other kinds.
    var parametersForNewVault: PassphraseParameters? {
        guard case .passphrase = self else { return nil }
        return .makeNew()
    }

    /// The key bytes of this master key for the vault at `vaultPath`, whose header holds `parameters`.
    ///
    /// A key file is created when missing. A passphrase is stretched here, once.
    ///
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:)`` when the kind does not match the vault (a
    ///   passphrase for a key vault or the reverse), or the errors of the key file and the key itself.
    func keyBytes(parameters: PassphraseParameters?, vaultPath: String) throws(CryptStoreError) -> SymmetricKey {
        switch self {
        case .keyFile(let url):
            guard parameters == nil else { throw .wrongMasterKey(path: vaultPath) }
            return try Self.loadKeyFile(atPath: url.standardizedFileURL.path)
        case .symmetric(let key):
            guard parameters == nil else { throw .wrongMasterKey(path: vaultPath) }
            guard CryptoPrimitives.byteCount(of: key) >= 16 else {
                throw .invalidMasterKey(reason: "a symmetric master key needs at least 128 bits")
            }
            return key
        case .passphrase(let passphrase):
            guard let parameters else { throw .wrongMasterKey(path: vaultPath) }
            guard !passphrase.isEmpty else { throw .invalidMasterKey(reason: "the passphrase is empty") }
            do {
                return try parameters.deriveKey(from: passphrase)
            } catch {
                throw .openFailed(path: vaultPath, underlying: String(describing: error))
            }
        }
    }

    /// Reads the key file at `path`, creating it with 32 random bytes (owner-only) when missing, and removes
    /// the temporary files that crashed creators of it left.
    private static func loadKeyFile(atPath path: String) throws(CryptStoreError) -> SymmetricKey {
        // A process killed while creating the key file may have left a copy of the key in a temporary file.
        let folder = FileSystem.parentPath(of: path)
        let name = String(path.utf8.dropFirst(folder.utf8.count + 1)) ?? path
        FileSystem.removeOrphanedTemporaryFiles(inDirectory: folder, forName: name)
        // A second pass only follows the creation of the file, by this process or a concurrent one.
        for _ in 0..<2 {
            let file: (data: Data, permissions: UInt16)
            do {
                file = try FileSystem.readFileWithPermissions(atPath: path)
            } catch  where error.isNotFound {
                try createKeyFile(atPath: path)
                continue
            } catch {
                throw .openFailed(path: path, underlying: error.description)
            }
            guard file.permissions & FileSystem.groupAndOtherPermissions == 0 else {
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
        throw .openFailed(path: path, underlying: "the key file vanished while it was being created")
    }

    /// Creates a key file of random bytes at `path`, owner-only, unless one appeared there meanwhile.
    private static func createKeyFile(atPath path: String) throws(CryptStoreError) {
        var options = FileSystem.WriteOptions()
        options.permissions = 0o600
        options.directoryPermissions = 0o700
        options.replaceExisting = false
        options.synchronize = true
        do {
            try FileSystem.writeAtomically(
                CryptoPrimitives.randomBytes(count: CryptoPrimitives.keyByteCount),
                toPath: path,
                options: options
            )
        } catch  where error.isAlreadyExists {
            return
        } catch {
            throw .openFailed(path: path, underlying: error.description)
        }
    }
}
