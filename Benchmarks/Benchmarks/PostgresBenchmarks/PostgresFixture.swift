import BenchmarkSupport
import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Synchronization

/// What every Postgres benchmark of a process shares: the client of the server `FORGE_POSTGRES_URL` names, the
/// store, its limit, and the observer of the stream benchmark that runs.
///
/// The client runs from the first benchmark's setup to the end of the process, and the table is prepared and holds
/// the sample value before any benchmark measures: the harness calls every setup hook before each benchmark, so
/// ``start()`` does its work once and later calls await the first one's.
final class PostgresFixture: Sendable {
    /// The namespace of the benchmarks' rows; the runs overwrite one row, so nothing piles up on a kept server.
    static let namespace = "forge-benchmarks"
    /// The key every benchmark reads or writes.
    static let keyName = "profile"

    /// The client every call of the store and of the limit leases its connections from.
    let client: PostgresClient
    /// The store measured.
    let store: PostgresKVStore
    /// The limit: the store's SQL, sent raw.
    let raw: RawPostgresKV
    /// The key of ``Profile/sample``.
    let key = KVKey<Profile>(keyName)

    /// The task that runs the client, started once.
    private let runner = Mutex<Task<Void, Never>?>(nil)
    /// The preparation of the table and of the sample row, started once.
    private let preparation = Mutex<Task<Void, any Error>?>(nil)
    /// The count of the last value ``nextProfile()`` made.
    private let counter = Atomic<Int>(1_000)
    /// The stream the running stream benchmark awaits, between its setup and its teardown.
    private let observer = Mutex<StreamObserver?>(nil)

    /// A fixture of the server `configuration` reaches, not yet started.
    init(configuration: PostgresClient.Configuration) {
        client = PostgresClient(configuration: configuration)
        store = PostgresKVStore(client: client, namespace: Self.namespace)
        raw = RawPostgresKV(client: client, namespace: Self.namespace, key: Self.keyName)
    }

    /// Runs the client and prepares the table with the sample value, once per process.
    func start() async throws {
        runner.withLock { runner in
            if runner == nil { runner = Task { [client] in await client.run() } }
        }
        let prepared = preparation.withLock { preparation in
            if let preparation { return preparation }
            let started = Task { [store, key] in
                try await store.prepare()
                try await store.set(key, value: .sample)
            }
            preparation = started
            return started
        }
        try await prepared.value
    }

    /// ``Profile/sample`` with a count no earlier call gave: a stream never skips it as unchanged.
    func nextProfile() -> Profile {
        var profile = Profile.sample
        profile.count = counter.add(1, ordering: .relaxed).newValue
        return profile
    }

    /// Starts observing `stream` for a stream benchmark: awaits its current value, then `rounds` sets by `set`, each
    /// until it arrives, so that the store listens and every read its start caused is over before the measurement.
    func observe(
        _ stream: AsyncStream<Profile?>,
        warmUpRounds rounds: Int = 5,
        set: (Profile) async throws -> Void
    ) async throws {
        let started = StreamObserver(stream)
        try await started.next()
        for _ in 0..<rounds {
            let profile = nextProfile()
            try await set(profile)
            try await started.await(profile)
        }
        observer.withLock { $0 = started }
    }

    /// The stream the running stream benchmark observes.
    func currentObserver() throws -> StreamObserver {
        guard let current = observer.withLock({ $0 }) else { throw StreamObserver.NotObserving() }
        return current
    }

    /// Ends the stream benchmark's observation: its stream is released, which ends it.
    func stopObserving() async {
        let current = observer.withLock { observer in
            defer { observer = nil }
            return observer
        }
        await current?.end()
    }
}

extension PostgresFixture {
    /// The client configuration of the server `FORGE_POSTGRES_URL` names (as `scripts/postgres-for-tests` sets it),
    /// or nil when it is unset or cannot be used.
    static func configurationFromEnvironment() -> PostgresClient.Configuration? {
        ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"].flatMap { try? PostgresClient.Configuration(url: $0) }
    }
}
