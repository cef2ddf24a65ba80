import Foundation
import Testing

@testable import ForgeCrypt

/// The reading of what `SecItemCopyMatching` returns for a listing, which the Keychain store does on Apple platforms:
/// run here on values shaped as the Security framework hands them back.
struct KeychainResultTests {
    private let account = "acct"  // the value of `kSecAttrAccount`

    @Test func everyItemsAccountIsReadInTheKeychainsOrder() {
        let result: [[String: Any]] = [["acct": "b", "svce": "app"], ["acct": "a", "svce": "app"]]
        #expect(KeychainResult.accounts(in: result, accountAttribute: account) == ["b", "a"])
    }

    @Test func oneItemReturnedAsADictionaryIsRead() {
        let result: [String: Any] = ["acct": "auth.access", "svce": "app"]
        #expect(KeychainResult.accounts(in: result, accountAttribute: account) == ["auth.access"])
    }

    @Test func foundationCollectionsAreReadAsTheCoreFoundationOnesAre() {
        let items = NSArray(array: [NSDictionary(dictionary: ["acct": "a"]), NSDictionary(dictionary: ["acct": "b"])])
        #expect(KeychainResult.accounts(in: items, accountAttribute: account) == ["a", "b"])
        #expect(
            KeychainResult.accounts(in: NSDictionary(dictionary: ["acct": "c"]), accountAttribute: account) == ["c"]
        )
    }

    @Test func itemsWithoutATextAccountAreLeftOut() {
        let result: [[String: Any]] = [["svce": "app"], ["acct": Data([1]), "svce": "app"], ["acct": "kept"]]
        #expect(KeychainResult.accounts(in: result, accountAttribute: account) == ["kept"])
    }

    @Test func noResultOrOneOfAnotherKindHoldsNoAccount() {
        #expect(KeychainResult.accounts(in: nil, accountAttribute: account).isEmpty)
        #expect(KeychainResult.accounts(in: "acct", accountAttribute: account).isEmpty)
        #expect(KeychainResult.accounts(in: [String](), accountAttribute: account).isEmpty)
        #expect(KeychainResult.accounts(in: Data([1, 2]), accountAttribute: account).isEmpty)
    }
}
