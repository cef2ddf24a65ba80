import ForgeKVStore
import ForgePostgres
import ForgeSQLite
import Foundation
import Testing

/// A kind of store the adapter's tests run on: every session and cache test runs once on each.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The in-memory twin, `InMemoryKVStore`.
    case twin
    /// `DiskKVStore` on a new folder.
    case disk
    /// `SQLiteKVStore` on a new file.
    case sqlite
    /// `PostgresKVStore` on a new namespace of the server `FORGE_POSTGRES_URL` names.
    case postgres

    /// The kinds to run on: PostgreSQL only when `FORGE_POSTGRES_URL` names a server (``PostgresServerTests`` is
    /// skipped, saying so, when it does not).
    static let available: [Backend] = allCases.filter { $0 != .postgres || TestServer.url != nil }

    /// The kinds that two servers share through stores of their own: every one but the twin, one instance in one
    /// process, whose sharing proves nothing.
    static let shared: [Backend] = available.filter { $0 != .twin }

    var testDescription: String { rawValue }

    /// Runs `body` with `count` stores on one storage, as `count` servers open it, each reading `clock`, and removes
    /// the storage after, whether `body` succeeded or not.
    ///
    /// The twin: one instance, handed to every server; disk: stores on one new folder; SQLite: stores that each open
    /// one new file; PostgreSQL: stores on clients of their own, on one new namespace.
    func withStores<Result: Sendable>(
        _ count: Int = 1,
        clock: any ExpiryClock,
        _ body: ([any AsyncExpiringKVStoring]) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .twin:
            let store = InMemoryKVStore(expiry: KVExpiry(clock: clock))
            return try await body(Array(repeating: store, count: count))
        case .disk:
            let folder = Self.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let stores = (0..<count)
                .map { _ in
                    DiskKVStore(directory: .custom(folder), namespace: "web", expiry: KVExpiry(clock: clock))
                }
            return try await body(stores)
        case .sqlite:
            let folder = Self.newFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let databases = (0..<count)
                .map { _ in SQLiteDatabase(fileURL: folder.appendingPathComponent("web.sqlite")) }
            defer { for database in databases { try? database.close() } }
            let stores = databases.map { SQLiteKVStore(database: $0, namespace: "web", expiry: KVExpiry(clock: clock)) }
            return try await body(stores)
        case .postgres:
            return try await TestServer.withStores(count, clock: clock) { try await body($0) }
        }
    }

    /// A new temporary folder's URL; the folder is created by the store that uses it.
    private static func newFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("forge-vapor-\(UUID().uuidString)")
    }
}
