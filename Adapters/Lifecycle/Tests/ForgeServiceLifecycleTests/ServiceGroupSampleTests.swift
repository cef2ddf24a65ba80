import ForgeServiceLifecycle
import Foundation
import Logging
import ServiceLifecycle
import Testing
import UnixSignals

@testable import ForgeKVStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key the service group sample names, as an app declares it.
private enum ServerKeys {
    static let lastRequest = KVKey<String>("server.lastRequest")
}

/// The server of the service group sample: a `Service` that writes a setting for each request it serves, the last
/// one while it stops, after its graceful shutdown began.
private struct SettingsWriter: Service {
    let settings: UserDefaultsKVStore
    /// Tells that the first request was served.
    let served: AsyncStream<Void>
    private let serve: AsyncStream<Void>.Continuation

    init(settings: UserDefaultsKVStore) {
        self.settings = settings
        (served, serve) = AsyncStream<Void>.makeStream()
    }

    func run() async throws {
        try settings.set(ServerKeys.lastRequest, value: "GET /tasks")
        serve.yield()
        try? await gracefulShutdown()
        // A request in flight when the shutdown began, which the server finishes before it stops.
        try settings.set(ServerKeys.lastRequest, value: "POST /tasks")
    }
}

/// The sample for flushing a write-behind store in a service group, which the ForgeServiceLifecycle catalog quotes from
/// here: one of the UserDefaults tests, which run one at a time.
extension UserDefaultsFlushServiceTests {
    @Test func theServiceGroupSampleFlushesTheStoreOnceTheServerStopped() async throws {
        let logger = Logger(label: "ForgeServiceLifecycleTests")
        try await withHeldBackFlushes { store in
            let suiteName = store.domainName

            let settings = UserDefaultsKVStore(suiteName: suiteName)
            let server = SettingsWriter(settings: settings)  // your server: a Service that writes settings

            // Shut down in reverse: the server stops writing, then the service flushes what the store holds pending.
            let group = ServiceGroup(
                services: [StoreFlushService(flushing: settings), server],
                gracefulShutdownSignals: [.sigterm],
                logger: logger
            )

            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    try await group.run()
                }
                var served = server.served.makeAsyncIterator()
                await served.next()
                await group.triggerGracefulShutdown()
                try await tasks.next()
            }
            // The group ignores SIGTERM from its run on, to catch it: this process's children must not inherit that.
            signal(SIGTERM, SIG_DFL)
            let written = try #require(propertyList(of: suiteName), "nothing was flushed")
            #expect(written["server.lastRequest"] as? String == "POST /tasks")
        }
    }
}
