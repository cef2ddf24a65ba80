import ForgeHummingbird
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

/// The driver as a service of the app: `run()` reclaims expired values, and ends at a graceful shutdown.
@Suite("ForgePersistDriver as a service")
struct PersistDriverServiceTests {
    @Test func runReclaimsExpiredValuesAndEndsAtAGracefulShutdown() async throws {
        let clock = ManualExpiryClock()
        let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
        let persist = ForgePersistDriver(store: store, reclaimInterval: .seconds(60))
        try await persist.set(key: "session.1", value: "expired", expires: .seconds(1))
        try await persist.set(key: "session.2", value: "kept", expires: nil)
        clock.advance(by: .seconds(1))
        #expect(store.count == 2, "an expired value is not reclaimed by reading alone")

        // The first pass starts as the service does; the store tells of the removal it makes.
        let (removals, removal) = AsyncStream.makeStream(of: String?.self)
        let observation = store.observeChanges { removal.yield($0) }
        defer { observation.end() }
        let group = ServiceGroup(
            configuration: .init(services: [persist], logger: Logger(label: "forge.test.persist"))
        )
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var changes = removals.makeAsyncIterator()
            #expect(await changes.next() == .some("session.1"))
            #expect(store.count == 1)
            #expect(try await persist.get(key: "session.2", as: String.self) == "kept")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
