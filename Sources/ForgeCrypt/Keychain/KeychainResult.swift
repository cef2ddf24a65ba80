/// What `SecItemCopyMatching` hands back, read without the Security framework: ``SecItemKeychain`` passes the result
/// on as it is, so that the tests read it on every platform.
enum KeychainResult {
    /// The account of every item in `result` that has one, in the order the Keychain returned them.
    ///
    /// A query with `kSecReturnAttributes` and `kSecMatchLimitAll` returns an array of attribute dictionaries, or, for
    /// one item, the dictionary itself (as some systems answer). Anything else holds no account: an item without a
    /// text account is left out, and a result of another kind gives none.
    ///
    /// - Parameters:
    ///   - result: What `SecItemCopyMatching` returned, or nil.
    ///   - accountAttribute: The key of an item's account in its dictionary (`kSecAttrAccount`).
    /// - Returns: The accounts, none when `result` holds none.
    static func accounts(in result: Any?, accountAttribute: String) -> [String] {
        let items = (result as? [[String: Any]]) ?? (result as? [String: Any]).map { [$0] } ?? []
        return items.compactMap { $0[accountAttribute] as? String }
    }
}
