public import Foundation

/// The key that opens an ``EncryptedFileCrypt`` vault.
///
/// ```swift
/// // An app or a small server: a random key in a file only this user can read.
/// let vault = try EncryptedFileCrypt(namespace: "secrets", masterKey: .keyFile(keyURL))
/// // A server that gets its key from a secrets manager.
/// let vault = try EncryptedFileCrypt(namespace: "secrets", masterKey: .symmetric(key))
/// // A tool that asks its user.
/// let vault = try EncryptedFileCrypt(namespace: "secrets", masterKey: .passphrase(typed))
/// ```
///
/// Whatever the kind, the vault never uses it directly: it derives one key per purpose from it with HKDF.
/// A vault opens only with the kind and key it was created with.
public enum MasterKey: Sendable {
    /// A file of 32 random bytes. It is created, readable and writable by its owner only (`0600`, in a
    /// `0700` folder if the folder is new), when it does not exist; a key file that group or others have any
    /// access to is refused with ``CryptStoreError/insecureKeyFile(path:permissions:)``.
    ///
    /// Keep the key file apart from the vault (and out of backups that hold the vault): whoever has both
    /// has the secrets.
    case keyFile(URL)
    /// A key held elsewhere, for example in a server's secrets manager. At least 128 bits; 256 advised.
    case symmetric(SymmetricKey)
    /// A passphrase, stretched with PBKDF2-HMAC-SHA256 (600,000 iterations, a random 32-byte salt) once
    /// when the vault opens. The salt and the iteration count are stored in the vault's header; the
    /// passphrase is normalised to Unicode NFC first, so the same text typed on any system opens the vault.
    case passphrase(String)
}

extension MasterKey {
    /// The kinds of master key; a vault records the kind it was created with, and
    /// ``CryptStoreError/wrongMasterKey(path:createdWith:)`` names it.
    public enum Kind: String, Sendable, Hashable, Codable, CustomStringConvertible {
        /// ``MasterKey/keyFile(_:)``.
        case keyFile
        /// ``MasterKey/symmetric(_:)``.
        case symmetric
        /// ``MasterKey/passphrase(_:)``.
        case passphrase

        /// The kind in words: "a key file", "a symmetric key", "a passphrase".
        public var description: String {
            switch self {
            case .keyFile: "a key file"
            case .symmetric: "a symmetric key"
            case .passphrase: "a passphrase"
            }
        }
    }

    /// The kind of this master key.
    public var kind: Kind {
        switch self {
        case .keyFile: .keyFile
        case .symmetric: .symmetric
        case .passphrase: .passphrase
        }
    }
}
