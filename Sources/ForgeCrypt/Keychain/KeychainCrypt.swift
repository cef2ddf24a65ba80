internal import ForgeCore
public import Foundation

/// A ``CryptStoring`` that keeps each secret as a generic-password item in the Keychain (Apple platforms).
///
/// ```swift
/// let keychain = KeychainCrypt(service: "com.example.taskflow")
/// try keychain.set("token123", for: AuthKeys.accessToken)
/// ```
///
/// Each key is an item whose account is the key's string, under this store's `service` (and access group,
/// when given). The store's behaviour is the same as every ``CryptStoring``, and it never turns a failure
/// into nil: while the device is locked, an item that needs it unlocked throws
/// ``CryptStoreError/notAccessibleNow(key:)`` (a nil there would log users out).
///
/// - `set` adds the item and, when it exists, updates it in place: it never deletes and re-adds, which
///   could lose the secret if the second step failed.
/// - ``accessibility`` is applied when an item is added or updated, never used to look items up, so
///   items written with another accessibility are still found, and updated to this one on the next `set`.
/// - `deleteAll()` removes the items of this service (and access group, and synchronizable setting)
///   only, and `keys()` lists their accounts.
/// - The store implements ``CryptBackend``: each call is one Keychain item's bytes (or a few calls, for `set`), and
///   the typed API (the coding of values, `keys()` sorted) is the library's, as for every store.
/// - On macOS the store uses the data protection keychain, as on iOS; an app needs a keychain access group
///   for it (a signed app has its team's by default). A command-line tool without one gets
///   ``CryptStoreError/missingEntitlement(key:)``: use ``EncryptedFileCrypt`` there.
///
/// On platforms without the Security framework the type exists but cannot be created: use
/// ``EncryptedFileCrypt``.
public struct KeychainCrypt: Sendable {
    /// The `kSecAttrService` of this store's items: usually the app's bundle identifier.
    public let service: String
    /// The keychain access group of this store's items, to share them between apps; nil for the app's own.
    public let accessGroup: String?
    /// When the items can be read; applied when they are written.
    public let accessibility: KeychainAccessibility
    /// Whether the items synchronize through iCloud Keychain.
    ///
    /// Synchronizable items need an accessibility
    /// that is not "this device only", or every write fails with `errSecParam`.
    public let synchronizable: Bool

    private let keychain: any KeychainServices

    /// How many times `set` adds and updates when another process removes the item in between.
    static let maximumWriteAttempts = 3

    /// Creates a store over `keychain`: the Security framework, or a fake keychain in tests.
    init(
        service: String,
        accessGroup: String?,
        accessibility: KeychainAccessibility,
        synchronizable: Bool,
        keychain: any KeychainServices
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.synchronizable = synchronizable
        self.keychain = keychain
    }

    #if canImport(Security)
    /// Creates a store for the Keychain items of `service`.
    ///
    /// - Parameters:
    ///   - service: The items' `kSecAttrService`: usually the app's bundle identifier.
    ///   - accessGroup: A keychain access group to share the items with other apps of the team; nil for
    ///     the app's default group.
    ///   - accessibility: When the items can be read. Defaults to ``KeychainAccessibility/afterFirstUnlock``.
    ///   - synchronizable: Whether the items synchronize through iCloud Keychain. Defaults to false.
    public init(
        service: String,
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlock,
        synchronizable: Bool = false
    ) {
        self.init(
            service: service,
            accessGroup: accessGroup,
            accessibility: accessibility,
            synchronizable: synchronizable,
            keychain: SecItemKeychain()
        )
    }
    #endif
}

extension KeychainCrypt: CryptStoring, CryptBackend {
    /// The secret stored under `name`, or nil when the Keychain has no item for it.
    ///
    /// - Throws: ``CryptStoreError/notAccessibleNow(key:)`` while the device is locked,
    ///   ``CryptStoreError/missingEntitlement(key:)``, ``CryptStoreError/unexpectedStatus(key:status:)``, or
    ///   ``CryptStoreError/decodingFailed(key:underlying:)`` when the Keychain finds the item but returns no data.
    public func storedSecret(named name: String) throws -> Data? {
        let result = keychain.copyMatching(dataQuery(account: FileNameEncoding.canonicalForm(of: name)))
        switch result.status {
        case KeychainStatus.success:
            guard let data = result.data else {
                throw CryptStoreError.decodingFailed(key: name, underlying: "the Keychain returned no data")
            }
            return data
        case KeychainStatus.itemNotFound:
            return nil
        default:
            throw KeychainStatus.error(for: result.status, key: name)
        }
    }

    /// Stores `secret` under `name`: adds the item, or updates it in place when it exists.
    ///
    /// - Throws: The Keychain's status as a ``CryptStoreError``; the previous secret is kept.
    public func store(_ secret: Data, named name: String) throws {
        let account = FileNameEncoding.canonicalForm(of: name)
        var status = KeychainStatus.duplicateItem
        for _ in 0..<Self.maximumWriteAttempts {
            status = keychain.add(addAttributes(account: account, data: secret))
            guard status == KeychainStatus.duplicateItem else { break }
            status = keychain.update(itemQuery(account: account), with: updateAttributes(data: secret))
            // Not found: another process deleted the item between the add and the update. Add it again.
            guard status == KeychainStatus.itemNotFound else { break }
        }
        guard status == KeychainStatus.success else { throw KeychainStatus.error(for: status, key: name) }
    }

    /// Removes the item for `name`; succeeds when there is none.
    ///
    /// - Throws: The Keychain's status as a ``CryptStoreError``.
    public func removeSecret(named name: String) throws {
        let status = keychain.delete(itemQuery(account: FileNameEncoding.canonicalForm(of: name)))
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw KeychainStatus.error(for: status, key: name)
        }
    }

    /// Whether the Keychain has an item for `name`, asked without its data.
    ///
    /// - Throws: The Keychain's status as a ``CryptStoreError``, for example
    ///   ``CryptStoreError/notAccessibleNow(key:)``.
    public func hasSecret(named name: String) throws -> Bool {
        var query = itemQuery(account: FileNameEncoding.canonicalForm(of: name))
        query[.matchLimit] = .matchLimitOne
        let status = keychain.copyMatching(query).status
        switch status {
        case KeychainStatus.success: return true
        case KeychainStatus.itemNotFound: return false
        default: throw KeychainStatus.error(for: status, key: name)
        }
    }

    /// The accounts of this store's service, access group and synchronizable setting: its keys, in the NFC form the
    /// store writes them in.
    ///
    /// An account other code spelled in another Unicode form than NFC is left out: the store asks for each key in
    /// NFC, so it cannot read that item (``removeAll()`` still removes it). An account found in two access groups
    /// (when the store names none) is listed once by ``CryptStoring/keys()``.
    ///
    /// - Throws: The Keychain's status as a ``CryptStoreError``, for example
    ///   ``CryptStoreError/notAccessibleNow(key:)`` with no key while the device is locked.
    public func storedNames() throws -> [String] {
        var query = itemQuery(account: nil)
        query[.matchLimit] = .matchLimitAll
        query[.returnAttributes] = .bool(true)
        let result = keychain.copyAccounts(query)
        switch result.status {
        case KeychainStatus.success:
            return result.accounts.filter {
                $0.unicodeScalars.elementsEqual(FileNameEncoding.canonicalForm(of: $0).unicodeScalars)
            }
        case KeychainStatus.itemNotFound:
            return []
        default:
            throw KeychainStatus.error(for: result.status, key: nil)
        }
    }

    /// Removes every item of this store's service, access group and synchronizable setting.
    ///
    /// - Throws: The Keychain's status as a ``CryptStoreError``.
    public func removeAll() throws {
        let status = keychain.delete(itemQuery(account: nil))
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else {
            throw KeychainStatus.error(for: status, key: nil)
        }
    }
}

extension KeychainCrypt {
    /// The query that finds this store's item for `account`, or all its items when `account` is nil.
    ///
    /// It names the item (class, service, access group, synchronizable, account) and nothing else: no
    /// accessibility, so items written with another one are found too.
    func itemQuery(account: String?) -> KeychainQuery {
        var query = KeychainQuery(attributes: [
            .itemClass: .genericPassword,
            .service: .string(service),
            .synchronizable: .bool(synchronizable),
            .useDataProtectionKeychain: .bool(true),
        ])
        if let accessGroup { query[.accessGroup] = .string(accessGroup) }
        if let account { query[.account] = .string(account) }
        return query
    }

    /// The query that reads the data of the item for `account`.
    func dataQuery(account: String) -> KeychainQuery {
        var query = itemQuery(account: account)
        query[.returnData] = .bool(true)
        query[.matchLimit] = .matchLimitOne
        return query
    }

    /// The attributes of a new item for `account` holding `data`.
    func addAttributes(account: String, data: Data) -> KeychainQuery {
        var attributes = itemQuery(account: account)
        attributes[.valueData] = .data(data)
        attributes[.accessible] = .accessibility(accessibility)
        return attributes
    }

    /// The attributes an update changes: the data, and the accessibility, which may differ from the
    /// item's if the store's configuration changed.
    func updateAttributes(data: Data) -> KeychainQuery {
        KeychainQuery(attributes: [.valueData: .data(data), .accessible: .accessibility(accessibility)])
    }
}
