import ForgeCrypt
import ForgeStorageTesting
import Foundation
import Testing

/// Each injected fault on ``InMemoryCrypt`` surfaces as the Keychain (locked device) or the vault (disk
/// failures, damaged items) reports it.
struct InMemoryCryptFaultTests {
    let faults = StoreFaults()
    let store: InMemoryCrypt
    let token = CryptKey<String>(key: "auth.access")

    init() {
        store = InMemoryCrypt(faults: faults)
    }

    @Test func aLockedDeviceIsNotAccessibleNowForEveryOperation() throws {
        try store.set("abc", for: token)
        faults.failAlways(.all, with: .deviceLocked)
        #expect(throws: CryptStoreError.notAccessibleNow(key: token.key)) { try store.get(token) }
        #expect(throws: CryptStoreError.notAccessibleNow(key: token.key)) { try store.contains(token) }
        #expect(throws: CryptStoreError.notAccessibleNow(key: token.key)) { try store.set("new", for: token) }
        #expect(throws: CryptStoreError.notAccessibleNow(key: token.key)) { try store.delete(token) }
        #expect(throws: CryptStoreError.notAccessibleNow(key: nil)) { try store.deleteAll() }
        #expect(throws: CryptStoreError.notAccessibleNow(key: nil)) { try store.keys() }
        faults.removeAll()
        #expect(try store.get(token) == "abc")
        #expect(try store.keys() == [token.key])
    }

    @Test func aFullDiskFailsWritesAsTheVaultDoesAndKeepsTheSecret() throws {
        try store.set("abc", for: token)
        faults.failAlways(.changes, with: .outOfSpace)
        #expect(throws: CryptStoreError.writeFailed(key: token.key, underlying: .outOfSpace)) {
            try store.set("new", for: token)
        }
        #expect(throws: CryptStoreError.removeFailed(key: token.key, underlying: .outOfSpace)) {
            try store.delete(token)
        }
        #expect(throws: CryptStoreError.removeAllFailed(underlying: .outOfSpace)) {
            try store.deleteAll()
        }
        #expect(try store.get(token) == "abc")
    }

    @Test func aDeniedPermissionFailsReadsAsTheVaultDoes() throws {
        try store.set("abc", for: token)
        faults.failNext(.read, with: .permissionDenied)
        #expect(throws: CryptStoreError.readFailed(key: token.key, underlying: .permissionDenied)) {
            try store.get(token)
        }
        faults.failNext(.exists, with: .permissionDenied)
        #expect(try !store.contains(token))
    }

    @Test func aFailedListingIsListFailedWithTheReasonAndChangesNothing() throws {
        try store.set("abc", for: token)
        faults.failNext(.list, with: .permissionDenied)
        #expect(throws: CryptStoreError.listFailed(underlying: .permissionDenied)) { try store.keys() }
        faults.failNext(.list, with: .corruptData)
        #expect(throws: CryptStoreError.listFailed(underlying: .ioError)) { try store.keys() }
        // A listing is a whole-store operation: a fault aimed at one key never fails it.
        faults.failAlways(.list, at: token.key, with: .outOfSpace)
        #expect(try store.keys() == [token.key])
        #expect(try store.get(token) == "abc")
    }

    @Test func corruptDataIsATamperedItemWhenASecretIsStored() throws {
        faults.failAlways(.read, with: .corruptData)
        #expect(try store.get(token) == nil)
        try store.set("abc", for: token)
        #expect(throws: CryptStoreError.tamperedItem(key: token.key)) { try store.get(token) }
        #expect(try store.contains(token))
    }

    @Test func yourOwnErrorIsThrownAsItIs() {
        faults.failNext(.write, with: .error(CryptStoreError.missingEntitlement(key: token.key)))
        #expect(throws: CryptStoreError.missingEntitlement(key: token.key)) { try store.set("abc", for: token) }
    }
}
