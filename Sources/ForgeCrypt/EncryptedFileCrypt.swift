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
/// random vault identifier, the passphrase parameters, a key-check value), and one file per item, named by
/// a keyed hash of its key: no key name and no secret is ever written in the clear. Each item is sealed
/// with AES-256-GCM, its key name bound as authenticated data, so an item file copied into another item's
/// place fails to open. See ``MasterKey`` for the kinds of master key.
///
/// ## Failures
/// Opening the vault with another master key than it was made with throws
/// ``CryptStoreError/wrongMasterKey(path:)``, before anything is read or written. With the right key, an
/// item that fails to authenticate makes ``get(_:)`` throw ``CryptStoreError/tamperedItem(key:)``; the
/// file is left as it is for inspection, and never reads as missing.
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

    private let folderPath: String
    private let keys: VaultKeys

    /// The permission bits of the vault folder.
    static let folderPermissions: UInt16 = 0o700
    /// The permission bits of every file in the vault.
    static let filePermissions: UInt16 = 0o600

    /// Opens the vault in `{directory}/{namespace}/`, creating it when it does not exist.
    ///
    /// Opening reads or creates the master key (stretching a passphrase, which takes a moment), checks it
    /// against the vault, secures the folder's permissions and removes temporary files left by crashed
    /// writers. Open the store once and share it: it is a `Sendable` value.
    ///
    /// - Parameters:
    ///   - directory: The base folder. Defaults to `StorageDirectory.applicationSupport`.
    ///   - namespace: The vault folder's name. Any string: it is escaped so it never leaves `directory`.
    ///   - masterKey: The key that opens the vault; see ``MasterKey``.
    ///   - fileProtection: The Data Protection level on Apple platforms; no effect on Linux.
    /// - Throws: ``CryptStoreError/wrongMasterKey(path:)`` when the vault was made with another master key,
    ///   ``CryptStoreError/insecureKeyFile(path:permissions:)``, ``CryptStoreError/invalidMasterKey(reason:)``,
    ///   ``CryptStoreError/corruptVault(path:reason:)`` or ``CryptStoreError/openFailed(path:underlying:)``.
    public init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        masterKey: MasterKey,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication
    ) throws {
        self.directory = directory
        self.namespace = namespace
        self.fileProtection = fileProtection
        self.folderURL = directory.folderURL(forNamespace: namespace)
        let folderPath = folderURL.path
        self.folderPath = folderPath
        do {
            try FileSystem.createDirectory(
                atPath: folderPath,
                exactPermissions: Self.folderPermissions,
                protection: fileProtection
            )
        } catch {
            throw CryptStoreError.openFailed(path: folderPath, underlying: error.description)
        }
        FileSystem.removeLeftoversOnce(inFolder: folderPath)
        self.keys = try Self.openVault(
            atPath: folderPath,
            masterKey: masterKey,
            options: Self.writeOptions(protection: fileProtection, replaceExisting: false)
        )
    }

    /// The file that holds (or would hold) the item stored under `key`.
    ///
    /// Its name is a keyed hash: without the master key, nobody can tell which key a file belongs to.
    public func fileURL<Value>(for key: CryptKey<Value>) -> URL {
        folderURL.appendingPathComponent(keys.item(for: key.key).fileName, isDirectory: false)
    }

    private func itemPath(for key: String) -> String {
        folderPath + "/" + keys.item(for: key).fileName
    }

    private static func writeOptions(protection: FileProtection, replaceExisting: Bool) -> FileSystem.WriteOptions {
        var options = FileSystem.WriteOptions()
        options.permissions = mode_t(filePermissions)
        options.directoryPermissions = mode_t(folderPermissions)
        options.replaceExisting = replaceExisting
        options.synchronize = true
        options.protection = protection
        return options
    }
}

extension EncryptedFileCrypt: CryptStoring {
    /// Returns the secret stored for `key`, or nil when the vault holds no item for it.
    ///
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` when the item fails to authenticate,
    ///   ``CryptStoreError/decodingFailed(key:underlying:)`` when it is not a `Value`, or
    ///   ``CryptStoreError/readFailed(key:underlying:)``.
    public func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? {
        let item = keys.item(for: key.key)
        let file: Data
        do {
            file = try FileSystem.readFile(named: item.fileName, inFolder: folderPath)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw CryptStoreError.readFailed(key: key.key, underlying: error.description)
        }
        guard let plaintext = keys.open(file, as: item) else { throw CryptStoreError.tamperedItem(key: key.key) }
        return try SecretCoding.decode(Value.self, from: plaintext, key: key.key)
    }

    /// Encrypts `value` and stores it for `key`, atomically, in an owner-only file.
    ///
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` or
    ///   ``CryptStoreError/writeFailed(key:underlying:)``; the previous secret is kept either way.
    public func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {
        let plaintext = try SecretCoding.encode(value, key: key.key)
        let item = keys.item(for: key.key)
        let file: Data
        do {
            file = try keys.seal(plaintext, as: item)
        } catch {
            throw CryptStoreError.writeFailed(key: key.key, underlying: String(describing: error))
        }
        do {
            try FileSystem.writeAtomically(
                file,
                named: item.fileName,
                inFolder: folderPath,
                options: Self.writeOptions(protection: fileProtection, replaceExisting: true)
            )
        } catch {
            throw CryptStoreError.writeFailed(key: key.key, underlying: error.description)
        }
    }

    /// Removes the item stored for `key`; succeeds when there is none.
    ///
    /// - Throws: ``CryptStoreError/removeFailed(key:underlying:)`` when the file cannot be removed.
    public func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {
        do {
            try FileSystem.removeFile(atPath: itemPath(for: key.key))
        } catch {
            throw CryptStoreError.removeFailed(key: key.key, underlying: error.description)
        }
    }

    /// Returns true when the vault holds an item for `key`.
    ///
    /// The item is not decrypted: ``get(_:)`` tells whether it is intact.
    ///
    /// - Throws: ``CryptStoreError/readFailed(key:underlying:)`` when the vault cannot tell, for example
    ///   when its folder cannot be read: that never reads as "not stored".
    public func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool {
        do {
            return try FileSystem.isRegularFile(atPath: itemPath(for: key.key))
        } catch {
            throw CryptStoreError.readFailed(key: key.key, underlying: error.description)
        }
    }

    /// Removes every item of the vault; the vault itself (its header) stays, so the store remains usable.
    ///
    /// - Throws: ``CryptStoreError/removeAllFailed(underlying:)`` when an item cannot be removed.
    public func deleteAll() throws {
        do {
            for entry in try FileSystem.listDirectory(atPath: folderPath) where Self.isItemFile(entry) {
                try FileSystem.removeFile(atPath: folderPath + "/" + entry.name)
            }
        } catch {
            throw CryptStoreError.removeAllFailed(underlying: error.description)
        }
    }
}

extension EncryptedFileCrypt {
    /// Reads the vault's header and checks `masterKey` against it, or creates the header of a new vault.
    private static func openVault(
        atPath folder: String,
        masterKey: MasterKey,
        options: FileSystem.WriteOptions
    ) throws(CryptStoreError) -> VaultKeys {
        let headerPath = folder + "/" + VaultHeader.fileName
        // A second pass only follows a header that another process created at the same moment.
        for _ in 0..<2 {
            if let header = try readHeader(atPath: headerPath, folder: folder) {
                let keyBytes = try masterKey.keyBytes(parameters: header.passphrase, vaultPath: folder)
                let keys = VaultKeys(masterKey: keyBytes, vaultID: header.vaultID)
                guard keys.matches(keyCheck: header.keyCheck) else { throw .wrongMasterKey(path: folder) }
                return keys
            }
            try refuseItemsWithoutHeader(inFolder: folder)
            let parameters = masterKey.parametersForNewVault
            let keyBytes = try masterKey.keyBytes(parameters: parameters, vaultPath: folder)
            let vaultID = CryptoPrimitives.randomBytes(count: VaultHeader.vaultIDByteCount)
            let keys = VaultKeys(masterKey: keyBytes, vaultID: vaultID)
            let header = VaultHeader(
                format: VaultHeader.currentFormat,
                vaultID: vaultID,
                passphrase: parameters,
                keyCheck: keys.keyCheck
            )
            do {
                // Never replaces a header: a concurrent opener's header wins and this one reads it.
                try FileSystem.writeAtomically(try JSONCodec.encode(header), toPath: headerPath, options: options)
                return keys
            } catch let error as FileSystemError where error.isAlreadyExists {
                continue
            } catch {
                throw .openFailed(path: folder, underlying: String(describing: error))
            }
        }
        throw .openFailed(path: folder, underlying: "the vault header changed while it was being created")
    }

    /// The vault's header, or nil when it has none yet.
    private static func readHeader(atPath path: String, folder: String) throws(CryptStoreError) -> VaultHeader? {
        let data: Data
        do {
            data = try FileSystem.readFile(atPath: path)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw .openFailed(path: folder, underlying: error.description)
        }
        guard let header = try? JSONCodec.decode(VaultHeader.self, from: data) else {
            throw .corruptVault(path: folder, reason: "\(VaultHeader.fileName) is not a vault header")
        }
        if let problem = header.problem { throw .corruptVault(path: folder, reason: problem) }
        return header
    }

    /// Refuses to start a new vault in a folder that holds items: their header is gone, and a new one would
    /// make them unreadable for good.
    private static func refuseItemsWithoutHeader(inFolder folder: String) throws(CryptStoreError) {
        let entries: [FileSystem.Entry]
        do {
            entries = try FileSystem.listDirectory(atPath: folder)
        } catch {
            throw .openFailed(path: folder, underlying: error.description)
        }
        let itemCount = entries.filter(isItemFile).count
        guard itemCount == 0 else {
            throw .corruptVault(
                path: folder,
                reason: "\(VaultHeader.fileName) is missing, so its \(itemCount) item(s) cannot be opened"
            )
        }
    }

    private static func isItemFile(_ entry: FileSystem.Entry) -> Bool {
        entry.kind == .file && entry.name.hasSuffix(VaultKeys.itemExtension) && !entry.name.hasPrefix(".")
    }
}
