import ForgeHummingbird
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Hummingbird
import Testing

/// A store that fails: the driver throws its typed error, and never reads a failure as a key that holds nothing (a
/// session that cannot be read is not a visitor without one).
@Suite("ForgePersistDriver when the store fails")
struct PersistDriverFailureTests {
    @Test func aReadThatFailsIsThrownNotReadAsNil() async throws {
        let faults = StoreFaults()
        let persist = ForgePersistDriver(store: InMemoryKVStore().injectingFaults(faults))
        try await persist.set(key: "hbs.session", value: "ada", expires: .seconds(60))

        faults.failAlways(.read, at: "hbs.session", with: .permissionDenied)
        await #expect(throws: KVStoreError.self) { try await persist.get(key: "hbs.session", as: String.self) }
        await #expect(throws: KVStoreError.self) { try await persist.getWithTTL(key: "hbs.session", as: String.self) }

        faults.removeAll()
        #expect(try await persist.get(key: "hbs.session", as: String.self) == "ada", "nothing was lost")
    }

    @Test func aCreateThatFailsIsThrownAsTheStoresErrorAndStoresNothing() async throws {
        let faults = StoreFaults()
        let persist = ForgePersistDriver(store: InMemoryKVStore().injectingFaults(faults))
        faults.failNext(.write, at: "hbs.new", with: .outOfSpace)
        await #expect(throws: KVStoreError.self) {
            try await persist.create(key: "hbs.new", value: "ada", expires: .seconds(60))
        }
        #expect(try await persist.get(key: "hbs.new", as: String.self) == nil)
        try await persist.create(key: "hbs.new", value: "ada", expires: .seconds(60))
    }
}
