import ForgeServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle
import Testing

@testable import ForgeKVStore

/// `StoreFlushService` over a `UserDefaultsKVStore` on Linux, whose changes wait in memory for a flush behind: a graceful
/// shutdown of the group, or the service's cancellation, leaves them in the property list another process reads.
///
/// One at a time (the sample's test too, in `ServiceGroupSampleTests.swift`): each holds the process's flushes behind
/// back, and a flush of any domain writes the pending changes of every domain of the process.
@Suite(
    .serialized,
    .enabled(if: !isApplePlatform, "cfprefsd persists UserDefaults changes on Apple platforms; flush does nothing")
)
struct UserDefaultsFlushServiceTests {
    @Test func aGracefulShutdownWritesThePendingChangesToThePropertyList() async throws {
        try await withHeldBackFlushes { store in
            try store.set(KVKey<Int>("count"), value: 42)
            try store.set(KVKey<String>("name"), value: "Ada")
            #expect(propertyList(of: store.domainName)?["count"] == nil, "the flush behind was not held back")

            let group = ServiceGroup(
                services: [StoreFlushService(flushing: store)],
                logger: Logger(label: "ForgeServiceLifecycleTests")
            )
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.next()
            }
            let written = try #require(propertyList(of: store.domainName))
            #expect(written["count"] as? Int == 42)
            #expect(written["name"] as? String == "Ada")
        }
    }

    @Test func aCancelledServiceWritesThemToo() async throws {
        try await withHeldBackFlushes { store in
            try store.set(KVKey<Int>("count"), value: 7)
            let running = Task { try await StoreFlushService(flushing: store).run() }
            running.cancel()
            try await running.value
            #expect(propertyList(of: store.domainName)?["count"] as? Int == 7)
        }
    }

    /// Runs `body` with a store on a new suite while flushes behind wait (the queue they run on is suspended), so that
    /// only a flush the test asks for writes the property list; removes the suite after.
    func withHeldBackFlushes(_ body: (UserDefaultsKVStore) async throws -> Void) async throws {
        let suite = "forge.tests.lifecycle.\(UUID().uuidString)"
        DefaultsSynchronizer.queue.suspend()
        defer {
            DefaultsSynchronizer.queue.resume()
            UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
        }
        try await body(UserDefaultsKVStore(suiteName: suite))
    }

    /// The property list of `domain` as another process reads it from the disk; nil when there is none.
    func propertyList(of domain: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: DefaultsFileLock.propertyListPath(of: domain)) else {
            return nil
        }
        return try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    }
}

/// Whether this is an Apple platform, where `cfprefsd` persists `UserDefaults` changes.
#if canImport(Darwin)
let isApplePlatform = true
#else
let isApplePlatform = false
#endif
