import Foundation
import Testing

@testable import ForgeCrypt

/// The Keychain store's logic over the fake keychain: the queries it builds, add-then-update, and the
/// mapping of every status to a typed error.
struct KeychainCryptTests {
    let keychain = FakeKeychain()
    let token = CryptKey<String>(key: "auth.access")

    private func store(
        service: String = "com.example.app",
        accessGroup: String? = nil,
        accessibility: KeychainAccessibility = .afterFirstUnlock,
        synchronizable: Bool = false
    ) -> KeychainCrypt {
        KeychainCrypt(
            service: service,
            accessGroup: accessGroup,
            accessibility: accessibility,
            synchronizable: synchronizable,
            keychain: keychain
        )
    }

    private func expectError(_ expected: CryptStoreError, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { error in
            (error as? CryptStoreError) == expected
        }
    }

    // MARK: Queries

    @Test func lookupsNameTheItemAndCarryNoAccessibility() throws {
        let store = store(accessGroup: "TEAMID.shared", synchronizable: true)
        try store.set("t", for: token)
        _ = try store.get(token)
        _ = try store.contains(token)
        try store.delete(token)
        try store.deleteAll()

        for call in keychain.calls where call.operation != .add {
            #expect(call.query[.accessible] == nil, "\(call.operation)")
            #expect(call.query[.valueData] == nil, "\(call.operation)")
            #expect(call.query[.itemClass] == .genericPassword)
            #expect(call.query[.service] == .string("com.example.app"))
            #expect(call.query[.accessGroup] == .string("TEAMID.shared"))
            #expect(call.query[.synchronizable] == .bool(true))
        }
        let get = try #require(keychain.calls.first { $0.operation == .copyMatching })
        #expect(get.query[.account] == .string(token.key))
        #expect(get.query[.returnData] == .bool(true))
        #expect(get.query[.matchLimit] == .matchLimitOne)
        let deleteAll = try #require(keychain.calls.last)
        #expect(deleteAll.operation == .delete)
        #expect(deleteAll.query[.account] == nil)
    }

    @Test func addAndUpdateCarryTheDataAndTheAccessibility() throws {
        let store = store(accessibility: .whenUnlockedThisDeviceOnly)
        try store.set("first", for: token)
        try store.set("second", for: token)

        let add = try #require(keychain.calls.first)
        #expect(add.operation == .add)
        #expect(add.query[.valueData] == .data(Data("first".utf8)))
        #expect(add.query[.accessible] == .accessibility(.whenUnlockedThisDeviceOnly))
        #expect(add.query[.account] == .string(token.key))
        let update = try #require(keychain.calls.first { $0.operation == .update })
        #expect(update.query[.accessible] == nil)
        #expect(update.attributes?[.valueData] == .data(Data("second".utf8)))
        #expect(update.attributes?[.accessible] == .accessibility(.whenUnlockedThisDeviceOnly))
    }

    // MARK: Writing

    @Test func setOnAnExistingItemUpdatesItInPlaceAndNeverDeletes() throws {
        let store = store()
        try store.set("first", for: token)
        try store.set("second", for: token)
        #expect(keychain.calls.map(\.operation) == [.add, .add, .update])
        #expect(keychain.items.count == 1)
        #expect(try store.get(token) == "second")
    }

    @Test func anItemRemovedBetweenAddAndUpdateIsAddedAgain() throws {
        let store = store()
        // Another process added the item, then deleted it before this update.
        keychain.failNext(.add, with: KeychainStatus.duplicateItem)
        try store.set("mine", for: token)
        #expect(keychain.calls.map(\.operation) == [.add, .update, .add])
        #expect(try store.get(token) == "mine")
    }

    @Test func aFailedUpdateKeepsTheOldSecret() throws {
        let store = store()
        try store.set("old", for: token)
        keychain.failNext(.update, with: -25_293)
        expectError(.unexpectedStatus(key: token.key, status: -25_293)) { try store.set("new", for: token) }
        #expect(try store.get(token) == "old")
    }

    @Test func itemsWrittenWithAnotherAccessibilityAreFoundAndMovedToThisOne() throws {
        try store(accessibility: .afterFirstUnlock).set("token", for: token)
        let stricter = store(accessibility: .whenUnlocked)
        #expect(try stricter.get(token) == "token")
        #expect(try stricter.contains(token))
        try stricter.set("token 2", for: token)
        #expect(keychain.items.map(\.accessibility) == [.whenUnlocked])
        #expect(try stricter.get(token) == "token 2")
    }

    @Test func storesOfOtherServicesOrSynchronizationAreSeparate() throws {
        let local = store()
        let synced = store(synchronizable: true)
        let other = store(service: "com.example.other")
        try local.set("local", for: token)
        try synced.set("synced", for: token)
        try other.set("other", for: token)

        try local.deleteAll()
        #expect(try local.get(token) == nil)
        #expect(try synced.get(token) == "synced")
        #expect(try other.get(token) == "other")
    }

    @Test func aSynchronizableStoreWithADeviceOnlyAccessibilityIsRefusedByTheKeychain() throws {
        let store = store(accessibility: .afterFirstUnlockThisDeviceOnly, synchronizable: true)
        expectError(.unexpectedStatus(key: token.key, status: KeychainStatus.parameterError)) {
            try store.set("t", for: token)
        }
    }

    // MARK: Statuses

    @Test func aLockedDeviceNeverReadsAsMissing() throws {
        let store = store(accessibility: .whenUnlocked)
        try store.set("token", for: token)
        keychain.isLocked = true
        expectError(.notAccessibleNow(key: token.key)) { _ = try store.get(token) }
        expectError(.notAccessibleNow(key: token.key)) { _ = try store.contains(token) }
        expectError(.notAccessibleNow(key: token.key)) { try store.set("new", for: token) }
        keychain.isLocked = false
        #expect(try store.get(token) == "token")
    }

    @Test func afterFirstUnlockItemsStayReadableWhileLocked() throws {
        let store = store(accessibility: .afterFirstUnlock)
        try store.set("token", for: token)
        keychain.isLocked = true
        #expect(try store.get(token) == "token")
    }

    @Test(arguments: [FakeKeychain.Operation.add, .copyMatching, .copyAccounts, .update, .delete])
    func everyFailingStatusIsTypedOnEveryOperation(operation: FakeKeychain.Operation) throws {
        let cases: [(Int32, CryptStoreError)] = [
            (KeychainStatus.interactionNotAllowed, .notAccessibleNow(key: token.key)),
            (KeychainStatus.missingEntitlement, .missingEntitlement(key: token.key)),
            (-25_293, .unexpectedStatus(key: token.key, status: -25_293)),
            (KeychainStatus.parameterError, .unexpectedStatus(key: token.key, status: KeychainStatus.parameterError)),
        ]
        for (status, expected) in cases {
            let keychain = FakeKeychain()
            let store = KeychainCrypt(
                service: "s",
                accessGroup: nil,
                accessibility: .afterFirstUnlock,
                synchronizable: false,
                keychain: keychain
            )
            try store.set("existing", for: token)
            keychain.failAlways(operation, with: status)
            switch operation {
            case .add:
                try store.delete(token)
                expectError(expected) { try store.set("t", for: token) }
            case .copyMatching:
                expectError(expected) { _ = try store.get(token) }
                expectError(expected) { _ = try store.contains(token) }
            case .copyAccounts:
                expectError(KeychainStatus.error(for: status, key: nil)) { _ = try store.keys() }
            case .update:
                expectError(expected) { try store.set("t", for: token) }
            case .delete:
                expectError(expected) { try store.delete(token) }
                let all = KeychainStatus.error(for: status, key: nil)
                expectError(all) { try store.deleteAll() }
            }
        }
    }

    @Test func notFoundIsAResultNotAnError() throws {
        let store = store()
        #expect(try store.get(token) == nil)
        #expect(try !store.contains(token))
        try store.delete(token)
        try store.deleteAll()
    }

    @Test func successWithoutDataIsADecodingFailureNotNil() throws {
        struct NoDataKeychain: KeychainServices {
            func add(_ attributes: KeychainQuery) -> Int32 { KeychainStatus.success }
            func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?) { (KeychainStatus.success, nil) }
            func copyAccounts(_ query: KeychainQuery) -> (status: Int32, accounts: [String]) {
                (KeychainStatus.success, [])
            }
            func update(_ query: KeychainQuery, with attributes: KeychainQuery) -> Int32 { KeychainStatus.success }
            func delete(_ query: KeychainQuery) -> Int32 { KeychainStatus.success }
        }
        let store = KeychainCrypt(
            service: "s",
            accessGroup: nil,
            accessibility: .afterFirstUnlock,
            synchronizable: false,
            keychain: NoDataKeychain()
        )
        #expect(throws: CryptStoreError.self) { _ = try store.get(token) }
    }

    @Test func stringsAreStoredAsTheirUTF8BytesForOtherKeychainReaders() throws {
        try store().set("tök€n", for: token)
        #expect(keychain.items.first?.data == Data("tök€n".utf8))
        #expect(keychain.items.first?.accessGroup == FakeKeychain.defaultAccessGroup)
    }

    // MARK: Listing

    @Test func keysAreTheSortedAccountsOfThisServiceGroupAndSynchronizationOnly() throws {
        let store = store()
        for name in ["b", "a", "auth.access", "Z"] {
            try store.set("v", for: CryptKey<String>(key: name))
        }
        try self.store(service: "com.example.other").set("v", for: CryptKey<String>(key: "other.service"))
        try self.store(synchronizable: true).set("v", for: CryptKey<String>(key: "synchronized"))
        try self.store(accessGroup: "TEAMID.shared").set("v", for: CryptKey<String>(key: "shared"))
        #expect(try store.keys() == ["Z", "a", "auth.access", "b", "shared"])
        #expect(try self.store(accessGroup: "TEAMID.shared").keys() == ["shared"])
        #expect(try self.store(synchronizable: true).keys() == ["synchronized"])

        try store.delete(CryptKey<String>(key: "a"))
        #expect(try store.keys() == ["Z", "auth.access", "b", "shared"])
        try store.deleteAll()
        #expect(try store.keys() == [])
        #expect(try self.store(service: "com.example.other").keys() == ["other.service"])
    }

    @Test func keysAskForTheAttributesOfEveryItemAndNoData() throws {
        let store = store(accessGroup: "TEAMID.shared")
        try store.set("t", for: token)
        _ = try store.keys()
        let call = try #require(keychain.calls.last)
        #expect(call.operation == .copyAccounts)
        var expected = store.itemQuery(account: nil)
        expected[.matchLimit] = .matchLimitAll
        expected[.returnAttributes] = .bool(true)
        #expect(call.query == expected)
        #expect(call.query[.returnData] == nil)
        #expect(call.query[.accessible] == nil)
    }

    @Test func anAccountInTwoGroupsIsListedOnceAndOneOtherCodeSpelledInNFDIsNotListed() throws {
        func item(_ account: String, group: String) -> FakeKeychain.Item {
            FakeKeychain.Item(
                service: "com.example.app",
                account: account,
                accessGroup: group,
                synchronizable: false,
                accessibility: .afterFirstUnlock,
                data: Data("x".utf8)
            )
        }
        // Other code's items: one spelled in NFD, which the store (asking in NFC) cannot read, and one in NFC.
        keychain.insert(item("cafe\u{301}", group: "TEAMID.other"))
        keychain.insert(item("shared", group: "TEAMID.other"))
        try store().set("y", for: CryptKey<String>(key: "shared"))
        let keys = try store().keys()
        #expect(keys.map { Array($0.unicodeScalars) } == [Array("shared".unicodeScalars)])
        #expect(try store().get(CryptKey<String>(key: "caf\u{E9}")) == nil)
    }

    @Test func aLockedDeviceFailsTheListingAndNeverListsNothing() throws {
        let store = store(accessibility: .whenUnlocked)
        try store.set("token", for: token)
        keychain.isLocked = true
        expectError(.notAccessibleNow(key: nil)) { _ = try store.keys() }
        keychain.isLocked = false
        #expect(try store.keys() == [token.key])
    }

    @Test func anEmptyServiceHasNoKeys() throws {
        #expect(try store().keys() == [])
    }
}
