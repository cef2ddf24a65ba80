internal import Foundation

/// The five Keychain calls ``KeychainCrypt`` makes, each returning the raw `OSStatus`.
///
/// The Security framework's `SecItem` functions implement it on Apple platforms; the tests implement it
/// with a fake keychain that follows the same rules (duplicate items, not-found, locked device).
protocol KeychainServices: Sendable {
    /// `SecItemAdd`: adds the item described by `attributes`.
    func add(_ attributes: KeychainQuery) -> Int32
    /// `SecItemCopyMatching`: finds the item matching `query`, and its data when the query asks for it.
    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?)
    /// `SecItemCopyMatching` with `kSecMatchLimitAll` and `kSecReturnAttributes`: the `kSecAttrAccount` of every
    /// item matching `query`, in no particular order.
    ///
    /// Finding nothing is `errSecItemNotFound` with no accounts, as `SecItemCopyMatching` answers.
    func copyAccounts(_ query: KeychainQuery) -> (status: Int32, accounts: [String])
    /// `SecItemUpdate`: changes `attributes` of every item matching `query`.
    func update(_ query: KeychainQuery, with attributes: KeychainQuery) -> Int32
    /// `SecItemDelete`: removes every item matching `query`.
    func delete(_ query: KeychainQuery) -> Int32
}
