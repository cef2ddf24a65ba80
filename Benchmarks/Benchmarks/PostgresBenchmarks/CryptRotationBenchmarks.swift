import Benchmark
import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Synchronization

// MARK: Secrets: a change of master key of a PostgresCrypt namespace of 10,000 secrets, to a new symmetric key, in one
// transaction, beside the vault's and SQLiteCrypt's (VaultBenchmarks, SQLiteBenchmarks). Each iteration is a whole
// rotation, to the other key. No peer yet: the figure is reported as it is.

/// Registers the rotation benchmark on the fixture's client.
func cryptRotationBenchmarks(_ fixture: PostgresFixture) {
    let rotation = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 10
    )
    Benchmark("crypt.postgres.rotate.10000:ours", configuration: rotation) { benchmark in
        let secrets = try await RotatedPostgresSecrets.shared(client: fixture.client)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try await secrets.rotate() }
        benchmark.stopMeasurement()
    }
}

/// A namespace of 10,000 secrets, made when the benchmark first uses it (outside its measurement), moved to the other
/// of two keys by each ``rotate()``.
private actor RotatedPostgresSecrets {
    static let count = 10_000
    static let secret = String(repeating: "s3cr3t-", count: 9)
    /// The namespace of the rows; emptied when the process first makes it, so nothing piles up on a kept server.
    static let namespace = "forge-benchmarks-rotation"
    /// The namespace, made once per process.
    private static let made = Mutex<Task<RotatedPostgresSecrets, any Error>?>(nil)

    /// The two keys the namespace moves between.
    private let keys: [SymmetricKey]
    /// The store, opened with the key the namespace has now.
    private var store: PostgresCrypt
    /// The index of that key.
    private var key = 0

    /// The namespace on `client`, made on first use.
    static func shared(client: PostgresClient) async throws -> RotatedPostgresSecrets {
        let task = made.withLock { made in
            if let made { return made }
            let started = Task { try await RotatedPostgresSecrets(client: client) }
            made = started
            return started
        }
        return try await task.value
    }

    private init(client: PostgresClient) async throws {
        let keys = [SymmetricKey(size: .bits256), SymmetricKey(size: .bits256)]
        self.keys = keys
        // The table made when missing; a kept server's namespace holds a header of an earlier run's keys, which this
        // store's preparation refuses: the namespace starts again either way.
        try? await PostgresCrypt(client: client, namespace: Self.namespace, masterKey: .symmetric(keys[0])).prepare()
        let namespaceBytes = Data(Self.namespace.utf8)
        _ = try await client.query("DELETE FROM forge_secrets WHERE namespace = sha256(\(namespaceBytes))")
        self.store = PostgresCrypt(client: client, namespace: Self.namespace, masterKey: .symmetric(keys[0]))
        for index in 0..<Self.count {
            try await self.store.set(Self.secret, for: CryptKey<String>(key: "api-token-\(index)"))
        }
    }

    /// Moves the namespace to the other key.
    func rotate() async throws {
        let next = 1 - key
        store = try await store.rotateMasterKey(to: .symmetric(keys[next]))
        key = next
    }
}
