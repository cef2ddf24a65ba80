import Configuration
import ForgeConfiguration
import ForgeKVStore
import ForgePostgres
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// The samples of the ForgeConfiguration documentation, which quotes them from here (`scripts/check-samples`
/// checks that they are verbatim): run as the reader would run them.
@Suite(.timeLimit(.minutes(1)))
struct DocumentationSampleTests {
    @Test func quickStart() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        try store.set(KVKey<Bool>("flags.features.newCheckout"), value: true)

        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        let config = ConfigReader(provider: provider)
        let newCheckout = config.bool(forKey: "features.newCheckout", default: false)  // true

        #expect(newCheckout)
    }

    @Test func aTestWatchesAFlagChange() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        let config = ConfigReader(provider: provider)
        try await config.watchBool(forKey: "features.newCheckout", default: false) { updates in
            var values = updates.makeAsyncIterator()
            #expect(try await values.next() == false)
            try store.set(KVKey<Bool>("flags.features.newCheckout"), value: true)
            #expect(try await values.next() == true)
        }
    }

    @Test(.enabled(if: TestServer.url != nil, TestServer.skipReason))
    func aServerSeesTheFlagAnotherServerSets() async throws {
        let namespace = "config-sample-\(UUID().uuidString)"
        let logger = Logger(label: "config-sample")
        let (seen, seeing) = AsyncStream<Bool>.makeStream()
        let client = try TestServer.makeClient()

        // `client`: this server's PostgresClient; `server`: the service that answers requests, reading `config`.
        let store = PostgresKVStore(client: client, namespace: namespace)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        let config = ConfigReader(provider: provider)
        let server = CheckoutServer(config: config, seeing: seeing)
        let group = ServiceGroup(services: [client, provider, server], logger: logger)

        try await TestServer.withClient { otherClient in
            let otherServer = PostgresKVStore(client: otherClient, namespace: namespace)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var values = seen.makeAsyncIterator()
                #expect(await values.next() == false)
                try await otherServer.set(KVKey<Bool>("flags.features.newCheckout"), value: true)
                while let enabled = await values.next(), !enabled {}
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            try await otherServer.removeAll()
        }
    }
}

/// A server's request handling, reduced to what the sample needs: it watches the flag until the group shuts down,
/// and tells the test each value it reads.
private struct CheckoutServer: Service {
    let config: ConfigReader
    let seeing: AsyncStream<Bool>.Continuation

    func run() async throws {
        try await config.watchBool(forKey: "features.newCheckout", default: false) { updates in
            for await enabled in updates.cancelOnGracefulShutdown() { seeing.yield(enabled) }
        }
    }
}
