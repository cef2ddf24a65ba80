import ForgeKVStore
import Foundation
import PostgresNIO
import ServiceLifecycle
import Testing

@testable import ForgePostgres

/// `PostgresStoreService` in a real `ServiceGroup`: it runs the stores' listening connections, ends their streams on a
/// graceful shutdown (each after one last read, so nothing committed before is lost) or at once on a cancellation, and
/// never hangs.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresStoreServiceTests {
    private let key = KVKey<Int>("count")

    @Test func aGracefulShutdownEndsEachStreamOnTheLastValueCommittedBeforeIt() async throws {
        let namespace = "service-\(UUID().uuidString)"
        let client = PostgresClient(configuration: try TestServer.configuration())
        let service = PostgresStoreService(client: client)
        let group = ServiceGroup(services: [client, service], logger: testLogger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let store = PostgresKVStore(client: client, namespace: namespace)
            await store.notifications.work.waitUntilHosted()
            var values = store.stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            #expect(store.notifications.listensInItsOwnTask == false, "the service runs the listening connection")
            for value in 1...20 { try await store.set(key, value: value) }

            await group.triggerGracefulShutdown()
            var last: Int?
            while let value = await values.next() { last = value }
            #expect(last == 20, "the stream ended before the last committed write")
            try await tasks.next()
            #expect(!store.notifications.isListening)
        }
        try await removeAll(in: namespace)
    }

    @Test func streamsMadeBeforeTheServiceRanEndWithIt() async throws {
        try await TestServer.withStores { (stores) async throws in
            // The stream listens in a task of its own: no service runs yet.
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            #expect(stores[0].notifications.listensInItsOwnTask == true)

            let group = ServiceGroup(services: [PostgresStoreService(client: stores[0].client)], logger: testLogger)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await stores[0].notifications.work.waitUntilHosted()
                try await stores[0].set(key, value: 7)
                await group.triggerGracefulShutdown()
                var last: Int?
                while let value = await values.next() { last = value }
                #expect(last == 7)
                try await tasks.next()
            }
            #expect(stores[0].notifications.listensInItsOwnTask == nil, "the listening task was not stopped")
        }
    }

    @Test func aStreamMadeOnceTheServiceEndedEndsAtOnceUntilItRunsAgain() async throws {
        try await TestServer.withStores { (stores) async throws in
            try await runAndShutDown(PostgresStoreService(client: stores[0].client))
            try await stores[0].set(key, value: 3)
            var ended = stores[0].stream(key).makeAsyncIterator()
            #expect(await ended.next() == nil, "a stream started after the shutdown")
            // Calls other than streams go on as before.
            #expect(try await stores[0].get(key) == 3)

            // The service runs again: streams start again, and end with it.
            let group = ServiceGroup(services: [PostgresStoreService(client: stores[0].client)], logger: testLogger)
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await stores[0].notifications.work.waitUntilHosted()
                var values = stores[0].stream(key).makeAsyncIterator()
                #expect(try await nextValue(&values) == 3)
                await group.triggerGracefulShutdown()
                while await values.next() != nil {}
                try await tasks.next()
            }
        }
    }

    @Test func aCancelledServiceEndsEveryStreamAtOnce() async throws {
        try await TestServer.withStores { (stores) async throws in
            let service = PostgresStoreService(client: stores[0].client)
            let running = Task { try await service.run() }
            await stores[0].notifications.work.waitUntilHosted()
            var values = stores[0].stream(key).makeAsyncIterator()
            #expect(try await nextValue(&values) == nil)
            // A second stream of another key of the same store, and one of another store on the client.
            let neighbour = PostgresKVStore(client: stores[0].client, namespace: stores[0].namespace + "-neighbour")
            var others = [stores[0].stream(KVKey<Int>("other")), neighbour.stream(key)].map { $0.makeAsyncIterator() }
            for index in others.indices { #expect(try await nextValue(&others[index]) == nil) }

            running.cancel()
            try await running.value
            while await values.next() != nil {}
            for index in others.indices { while await others[index].next() != nil {} }
            #expect(!stores[0].notifications.isListening)
            #expect(!neighbour.notifications.isListening)
        }
    }

    @Test func theStoresOfAClientHaveOneService() async throws {
        try await TestServer.withClient { client in
            // Two services of one client in one group: the second to start throws, and the group ends with it.
            let group = ServiceGroup(
                services: [PostgresStoreService(client: client), PostgresStoreService(client: client)],
                logger: testLogger
            )
            await #expect(throws: PostgresStoreError.serviceAlreadyRunning) { try await group.run() }
        }
    }

    @Test func withoutTheServiceAStreamEndsWhenItsConsumerStops() async throws {
        try await TestServer.withStores { (stores) async throws in
            let (seen, saw) = AsyncStream<Int?>.makeStream()
            let consumer = Task {
                for await value in stores[0].stream(key) { saw.yield(value) }
                saw.finish()
            }
            var seenValues = seen.makeAsyncIterator()
            #expect(await seenValues.next() == .some(nil))
            try await stores[0].set(key, value: 1)
            #expect(await seenValues.next() == .some(1))
            consumer.cancel()
            #expect(await seenValues.next() == nil)
        }
    }

    /// Runs `service` in a group of its own, and shuts the group down gracefully once the service runs.
    private func runAndShutDown(_ service: PostgresStoreService) async throws {
        let group = ServiceGroup(services: [service], logger: testLogger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await BackgroundWork.of(service.client).waitUntilHosted()
            await group.triggerGracefulShutdown()
            try await tasks.next()
        }
    }

    /// Removes the values of `namespace`, with a client of its own.
    private func removeAll(in namespace: String) async throws {
        try await TestServer.withClient { client in
            try await PostgresKVStore(client: client, namespace: namespace).removeAll()
        }
    }
}
