public import Foundation

/// An error thrown by a ``CryptStoring`` operation or by opening a store, naming the key or path involved
/// and the underlying reason.
///
/// No failure is ever reported as "not found": a read that cannot tell throws one of these, and the
/// stored secret stays as it was. A failure of the files underneath carries a typed `FailureReason`:
///
/// ```swift
/// do {
///     try secrets.set(token, for: AuthKeys.accessToken)
/// } catch CryptStoreError.writeFailed(_, .outOfSpace) {
///     // ask the user to free some space
/// } catch CryptStoreError.notAccessibleNow {
///     // try again once the device is unlocked
/// }
/// ```
public enum CryptStoreError: LocalizedError, Sendable, Hashable {
    /// The master key does not open the vault at `path`: another key file, key or passphrase made it.
    ///
    /// `createdWith` is the kind of master key the vault was created with; nil for a vault made before vaults
    /// recorded it, when it is known only not to be a passphrase.
    case wrongMasterKey(path: String, createdWith: MasterKey.Kind?)
    /// The key file at `path` does not exist, while the vault at `vaultPath` does: the vault opens only with
    /// the master key it was created with, so no new key file is made. Nothing was created or changed.
    case keyFileNotFound(path: String, vaultPath: String)
    /// The folder at `path` holds another vault than the one this store opened: it was removed and a vault
    /// was created there again. Nothing was written or removed; open the store again.
    case vaultReplaced(path: String)
    /// The master key of the vault at `path` is being changed (see ``EncryptedFileCrypt/rotateMasterKey(to:progress:)``),
    /// or a change was interrupted: the write or removal was refused, and nothing changed. Reads go on, with the old
    /// key or the new one.
    ///
    /// Also thrown by a rotation to another key than the one under way, asked of a store that cannot finish the one
    /// under way. Run the rotation under way again to finish it; writes work again once it ends.
    case rotationInProgress(path: String)
    /// The master key of the vault at `path` was changed since this store opened it, or this store's key is the old
    /// key of a rotation that has switched to its new key: the key no longer opens the vault. Nothing was changed;
    /// open the store again with the new master key.
    case masterKeyRotated(path: String)
    /// The stored item for `key` failed authentication: it was changed, damaged, or copied from another
    /// item's place. The file is left as it is.
    ///
    /// When ``CryptStoring/keys()`` meets such an item, it cannot know the item's key: `key` is then the item's
    /// file name in the vault folder.
    case tamperedItem(key: String)
    /// The vault's header at `path` is missing, unreadable or of an unknown format.
    case corruptVault(path: String, reason: String)
    /// The key file at `path` can be used by other users than its owner (`permissions` are its mode bits).
    case insecureKeyFile(path: String, permissions: UInt16)
    /// The master key cannot be used: a key file or key of the wrong size, or an empty passphrase.
    case invalidMasterKey(reason: String)
    /// The vault at `path` could not be opened: its folder or files could not be read, created or secured.
    case openFailed(path: String, underlying: FailureReason)
    /// The secret for `key` could not be encoded; nothing was written.
    case encodingFailed(key: String, underlying: String)
    /// The secret stored for `key` is intact but does not decode as the key's type.
    case decodingFailed(key: String, underlying: String)
    /// The secret for `key` could not be read.
    case readFailed(key: String, underlying: FailureReason)
    /// The secret for `key` could not be written; the previous secret is kept.
    case writeFailed(key: String, underlying: FailureReason)
    /// The secret for `key` could not be removed.
    case removeFailed(key: String, underlying: FailureReason)
    /// The store's secrets could not be removed.
    case removeAllFailed(underlying: FailureReason)
    /// The store's keys could not be listed.
    case listFailed(underlying: FailureReason)
    /// The Keychain item is not accessible now, usually because the device is locked
    /// (`errSecInteractionNotAllowed`). Try again once the device is unlocked; do not treat it as missing.
    case notAccessibleNow(key: String?)
    /// The app lacks the entitlement the Keychain needs (`errSecMissingEntitlement`): a keychain access
    /// group it may not use, or on macOS an app without a signed keychain access group.
    case missingEntitlement(key: String?)
    /// The Keychain returned another status: `status` is the raw `OSStatus`.
    case unexpectedStatus(key: String?, status: Int32)

    /// The key the failed operation was for, or nil when it was not about one key.
    public var key: String? {
        switch self {
        case .tamperedItem(let key), .encodingFailed(let key, _), .decodingFailed(let key, _),
            .readFailed(let key, _), .writeFailed(let key, _), .removeFailed(let key, _):
            key
        case .notAccessibleNow(let key), .missingEntitlement(let key), .unexpectedStatus(let key, _):
            key
        case .wrongMasterKey, .keyFileNotFound, .vaultReplaced, .rotationInProgress, .masterKeyRotated, .corruptVault,
            .insecureKeyFile, .invalidMasterKey, .openFailed, .removeAllFailed, .listFailed:
            nil
        }
    }

    /// Why the files underneath failed: the `underlying` reason of a failed open, read, write, remove,
    /// remove-all or listing; nil for the other cases, which the store or the Keychain decides.
    public var reason: FailureReason? {
        switch self {
        case .openFailed(_, let reason), .readFailed(_, let reason), .writeFailed(_, let reason),
            .removeFailed(_, let reason), .removeAllFailed(let reason), .listFailed(let reason):
            reason
        case .wrongMasterKey, .keyFileNotFound, .vaultReplaced, .rotationInProgress, .masterKeyRotated, .tamperedItem,
            .corruptVault, .insecureKeyFile, .invalidMasterKey, .encodingFailed, .decodingFailed, .notAccessibleNow,
            .missingEntitlement,
            .unexpectedStatus:
            nil
        }
    }

    /// A readable sentence naming the key or path and the reason.
    public var errorDescription: String? {
        switch self {
        case .wrongMasterKey(let path, let kind):
            "The master key does not open the vault at '\(path)', which was created with "
                + (kind?.description ?? "a key file or a symmetric key")
        case .keyFileNotFound(let path, let vaultPath):
            "The key file '\(path)' does not exist; the vault at '\(vaultPath)' opens only with the master key it "
                + "was created with, so no new key file was made"
        case .vaultReplaced(let path):
            "The folder '\(path)' now holds another vault than this store opened; nothing was changed "
                + "(open the store again)"
        case .rotationInProgress(let path):
            "The master key of the vault at '\(path)' is being changed, or a change was interrupted: nothing was "
                + "changed (reads go on; run the rotation again to finish it)"
        case .masterKeyRotated(let path):
            "The master key of the vault at '\(path)' was changed: this key no longer opens it (open it again with "
                + "the new master key)"
        case .tamperedItem(let key):
            "The secret for key '\(key)' failed authentication: it was changed, damaged or swapped"
        case .corruptVault(let path, let reason):
            "The vault at '\(path)' is corrupt: \(reason)"
        case .insecureKeyFile(let path, let permissions):
            "The key file '\(path)' has permissions 0\(String(permissions, radix: 8)): "
                + "group and others must have no access (chmod 600)"
        case .invalidMasterKey(let reason):
            "The master key cannot be used: \(reason)"
        case .openFailed(let path, let underlying):
            "Could not open the vault at '\(path)': \(underlying)"
        case .encodingFailed(let key, let underlying):
            "Could not encode the secret for key '\(key)': \(underlying)"
        case .decodingFailed(let key, let underlying):
            "Could not decode the secret for key '\(key)': \(underlying)"
        case .readFailed(let key, let underlying):
            "Could not read the secret for key '\(key)': \(underlying)"
        case .writeFailed(let key, let underlying):
            "Could not write the secret for key '\(key)': \(underlying)"
        case .removeFailed(let key, let underlying):
            "Could not remove the secret for key '\(key)': \(underlying)"
        case .removeAllFailed(let underlying):
            "Could not remove all secrets: \(underlying)"
        case .listFailed(let underlying):
            "Could not list the keys of the secrets: \(underlying)"
        case .notAccessibleNow(let key):
            "The Keychain item\(Self.naming(key)) is not accessible now (the device may be locked)"
        case .missingEntitlement(let key):
            "The Keychain refused access\(Self.naming(key)): the app lacks the required entitlement"
        case .unexpectedStatus(let key, let status):
            "The Keychain failed\(Self.naming(key)) with status \(status)"
        }
    }

    private static func naming(_ key: String?) -> String {
        key.map { " for key '\($0)'" } ?? ""
    }
}

extension CryptStoreError: CustomStringConvertible {
    /// The same text as ``errorDescription``.
    public var description: String {
        errorDescription ?? "CryptStoreError"
    }
}
