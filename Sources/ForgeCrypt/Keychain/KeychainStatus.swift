/// The `OSStatus` values ``KeychainCrypt`` handles, defined here so the logic builds without Security,
/// and the mapping of every status to a ``CryptStoreError``.
enum KeychainStatus {
    /// `errSecSuccess`.
    static let success: Int32 = 0
    /// `errSecParam`: a query the Keychain does not accept.
    static let parameterError: Int32 = -50
    /// `errSecItemNotFound`.
    static let itemNotFound: Int32 = -25_300
    /// `errSecDuplicateItem`.
    static let duplicateItem: Int32 = -25_299
    /// `errSecInteractionNotAllowed`: the item's class keys are locked, usually because the device is.
    static let interactionNotAllowed: Int32 = -25_308
    /// `errSecMissingEntitlement`.
    static let missingEntitlement: Int32 = -34_018

    /// The error that a failed `status` stands for, for the operation on `key` (nil for all items).
    ///
    /// Only call it for a status the caller does not handle itself: success and not-found are results,
    /// not errors, where the operation defines them.
    static func error(for status: Int32, key: String?) -> CryptStoreError {
        switch status {
        case interactionNotAllowed: .notAccessibleNow(key: key)
        case missingEntitlement: .missingEntitlement(key: key)
        default: .unexpectedStatus(key: key, status: status)
        }
    }
}
