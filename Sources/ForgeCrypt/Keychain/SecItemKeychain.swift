#if canImport(Security)
internal import Foundation
internal import Security

/// The Security framework's `SecItem` calls, and nothing else.
///
/// Each turns a ``KeychainQuery`` into a dictionary of `kSec…` constants and returns the raw status. All decisions live in
/// ``KeychainCrypt``, and the reading of a listing's result in ``KeychainResult``, which the tests run on every platform.
struct SecItemKeychain: KeychainServices {
    func add(_ attributes: KeychainQuery) -> Int32 {
        SecItemAdd(dictionary(attributes), nil)
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary(query), &result)
        return (status, result as? Data)
    }

    func copyAccounts(_ query: KeychainQuery) -> (status: Int32, accounts: [String]) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(dictionary(query), &result)
        guard status == errSecSuccess else { return (status, []) }
        return (status, KeychainResult.accounts(in: result, accountAttribute: kSecAttrAccount as String))
    }

    func update(_ query: KeychainQuery, with attributes: KeychainQuery) -> Int32 {
        SecItemUpdate(dictionary(query), dictionary(attributes))
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        SecItemDelete(dictionary(query))
    }

    private func dictionary(_ query: KeychainQuery) -> CFDictionary {
        var dictionary: [String: Any] = [:]
        for (attribute, value) in query.attributes {
            dictionary[name(of: attribute)] = object(for: value)
        }
        return dictionary as CFDictionary
    }

    private func name(of attribute: KeychainQuery.Attribute) -> String {
        switch attribute {
        case .itemClass: kSecClass as String
        case .service: kSecAttrService as String
        case .account: kSecAttrAccount as String
        case .accessGroup: kSecAttrAccessGroup as String
        case .accessible: kSecAttrAccessible as String
        case .synchronizable: kSecAttrSynchronizable as String
        case .valueData: kSecValueData as String
        case .returnData: kSecReturnData as String
        case .returnAttributes: kSecReturnAttributes as String
        case .matchLimit: kSecMatchLimit as String
        case .useDataProtectionKeychain: kSecUseDataProtectionKeychain as String
        }
    }

    private func object(for value: KeychainQuery.Value) -> Any {
        switch value {
        case .string(let string): return string
        case .data(let data): return data
        case .bool(let bool): return bool ? kCFBooleanTrue as Any : kCFBooleanFalse as Any
        case .genericPassword: return kSecClassGenericPassword
        case .matchLimitOne: return kSecMatchLimitOne
        case .matchLimitAll: return kSecMatchLimitAll
        case .accessibility(let accessibility): return constant(for: accessibility)
        }
    }

    private func constant(for accessibility: KeychainAccessibility) -> CFString {
        switch accessibility {
        case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
        case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        }
    }
}
#endif
