import ForgeKVStore
import ForgePostgres
import Foundation
import Logging
import ServiceLifecycle
import Testing
import UnixSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key the service group sample names, as an app declares it.
private enum TaskKeys {
    static let taskCount = KVKey<Int>("taskflow.taskCount")
}

/// The server of the service group sample: a `Service` with one response, which streams a setting to its client as a
/// server-sent-events handler would, until the stream ends; the server itself stops on its graceful shutdown.
private struct SettingsServer: Service {
    let settings: PostgresKVStore
    /// What the response sent its client, finished when the response ended.
    let sent: AsyncStream<Int?>
    private let send: AsyncStream<Int?>.Continuation

    init(settings: PostgresKVStore) {
        self.settings = settings
        (sent, send) = AsyncStream<Int?>.makeStream()
    }

    func run() async throws {
        let response = Task { [settings, send] in
            for await count in settings.stream(TaskKeys.taskCount) { send.yield(count) }
            send.finish()
        }
        try? await gracefulShutdown()
        await response.value
    }
}

/// The sample for running the stores in a service group, which the ForgePostgres catalog quotes from here, run against
/// the test server.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct ServiceGroupSampleTests {
    @Test func theGroupEndsTheStreamsBeforeTheServerAndTheClient() async throws {
        let configuration = try TestServer.configuration()
        let logger = testLogger
        let namespace = "sample-\(UUID().uuidString)"

        let client = PostgresClient(configuration: configuration)
        let settings = PostgresKVStore(client: client, namespace: namespace)
        let server = SettingsServer(settings: settings)  // your server: a Service whose responses stream settings

        // Shut down in reverse: the stores' streams end (so do the responses that stream them), then the server stops,
        // then the client.
        let group = ServiceGroup(
            services: [client, server, PostgresStoreService(client: client)],
            gracefulShutdownSignals: [.sigterm],
            logger: logger
        )

        // A client of the server sees the setting, then it changes, then the process is told to stop.
        var sent = server.sent.makeAsyncIterator()
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                try await group.run()
            }
            #expect(await sent.next() == .some(nil))
            try await settings.set(TaskKeys.taskCount, value: 42)
            await group.triggerGracefulShutdown()
            var last: Int?? = nil
            while let count = await sent.next() { last = count }
            #expect(last == .some(42), "the response ended before the last committed value")
            try await tasks.next()
        }
        // The group ignores SIGTERM from its run on, to catch it: this test process's children must not inherit that.
        signal(SIGTERM, SIG_DFL)
        try await TestServer.withClient { client in
            try await PostgresKVStore(client: client, namespace: namespace).removeAll()
        }
    }
}
