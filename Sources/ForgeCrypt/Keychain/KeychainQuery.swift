internal import Foundation

/// A Keychain query or attribute set, in portable form: what ``KeychainCrypt`` hands to the Security
/// framework, built and tested without it.
///
/// The one file that calls Security turns each attribute into its `kSec…` constant; everything else,
/// including the tests' fake keychain, reads this form.
struct KeychainQuery: Sendable, Equatable {
    /// A query key: each names one `kSec…` constant.
    enum Attribute: Sendable, Hashable, CaseIterable {
        /// `kSecClass`
        case itemClass
        /// `kSecAttrService`
        case service
        /// `kSecAttrAccount`
        case account
        /// `kSecAttrAccessGroup`
        case accessGroup
        /// `kSecAttrAccessible`
        case accessible
        /// `kSecAttrSynchronizable`
        case synchronizable
        /// `kSecValueData`
        case valueData
        /// `kSecReturnData`
        case returnData
        /// `kSecReturnAttributes`
        case returnAttributes
        /// `kSecMatchLimit`
        case matchLimit
        /// `kSecUseDataProtectionKeychain`
        case useDataProtectionKeychain
    }

    /// A query value.
    enum Value: Sendable, Hashable {
        /// A string, such as a service or an account.
        case string(String)
        /// Bytes, the item's secret.
        case data(Data)
        /// A boolean (`kCFBooleanTrue` or `kCFBooleanFalse`).
        case bool(Bool)
        /// `kSecClassGenericPassword`
        case genericPassword
        /// One of the `kSecAttrAccessible…` constants.
        case accessibility(KeychainAccessibility)
        /// `kSecMatchLimitOne`
        case matchLimitOne
        /// `kSecMatchLimitAll`
        case matchLimitAll
    }

    /// The attributes and their values.
    var attributes: [Attribute: Value]

    /// The value of `attribute`, or nil when the query does not hold it.
    subscript(attribute: Attribute) -> Value? {
        get { attributes[attribute] }
        set { attributes[attribute] = newValue }
    }
}
