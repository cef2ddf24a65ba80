import ForgeHummingbird
import ForgeKVStore
import ForgePostgres
import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Hummingbird
import PostgresNIO
import Testing

/// The storage a test's drivers share, each kind as its users keep it.
///
/// The in-memory twin, one SQLite file, one PostgreSQL database. Every driver of a test reads one manual clock, which
/// the test moves to expire values.
enum TestStorage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case twin
    case sqliteFile
    case postgres

    var testDescription: String { rawValue }

    /// The kinds the tests run on: PostgreSQL only when `FORGE_POSTGRES_URL` names a server, as
    /// `scripts/postgres-for-tests` sets it (CI does).
    static let available: [TestStorage] =
        ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"] == nil
        ? [.twin, .sqliteFile] : allCases

    /// The kinds that two servers can share: every one but the twin, which lives in one process.
    static let shared: [TestStorage] = available.filter { $0 != .twin }

    /// Runs `body` with `count` drivers on one new, empty storage of this kind, and the clock they read.
    ///
    /// Each driver's store is an instance of its own (its own connection, as on a server of its own) but the twin's,
    /// which is one. The storage is removed after, whether `body` succeeded or not.
    func withDrivers<Result: Sendable>(
        _ count: Int = 1,
        _ body: (_ drivers: [any PersistDriver], _ clock: ManualExpiryClock) async throws -> Result
    ) async throws -> Result {
        let clock = ManualExpiryClock()
        let expiry = KVExpiry(clock: clock)
        switch self {
        case .twin:
            let store = InMemoryKVStore(expiry: expiry)
            return try await body(Array(repeating: ForgePersistDriver(store: store), count: count), clock)
        case .sqliteFile:
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("forge-hummingbird-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("persist.sqlite")
            let stores = (0..<count).map { _ in SQLiteKVStore(fileURL: file, namespace: "persist", expiry: expiry) }
            defer { for store in stores { try? store.database.close() } }
            return try await body(stores.map { ForgePersistDriver(store: $0) }, clock)
        case .postgres:
            let url = try #require(ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"])
            let namespace = "hummingbird-test-\(UUID().uuidString)"
            return try await Self.withClients(count, url: url) { clients in
                let stores = clients.map { PostgresKVStore(client: $0, namespace: namespace, expiry: expiry) }
                do {
                    let result = try await body(stores.map { ForgePersistDriver(store: $0) }, clock)
                    try await stores[0].removeAll()
                    return result
                } catch {
                    try? await stores[0].removeAll()
                    throw error
                }
            }
        }
    }

    /// Runs `body` with `count` running clients of the server at `url`, each stopped after.
    private static func withClients<Result: Sendable>(
        _ count: Int,
        url: String,
        _ body: ([PostgresClient]) async throws -> Result,
        clients: [PostgresClient] = []
    ) async throws -> Result {
        if clients.count == count { return try await body(clients) }
        let client = PostgresClient(configuration: try PostgresClient.Configuration(url: url))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await withClients(count, url: url, body, clients: clients + [client])
        }
    }
}
