import ForgeStorage
import ForgeStorageTesting
import Foundation
import TaskFlow
import Testing

#if Postgres
import ForgePostgres
#endif

#if SQLite
import ForgeSQLite
#endif

/// The server-side sessions service, unchanged, on the in-memory twins, on the disk stores, over a reactive store, on
/// the three SQLite stores of one database file and on the three PostgreSQL stores: the asynchronous protocols let one
/// service run on any store.
struct TaskFlowSessionsTests {
    /// The stores a test runs the service on.
    enum Stores: String, CaseIterable, CustomTestStringConvertible {
        case memory, disk, reactiveDisk, sqlite, postgres

        var testDescription: String { rawValue }

        /// The server `FORGE_POSTGRES_URL` names, which `scripts/postgres-for-tests` sets; the PostgreSQL stores are
        /// left out without one, and in a build without the package's `Postgres` trait.
        static let postgresURL: String? = {
            #if Postgres
            ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"]
            #else
            nil
            #endif
        }()

        /// The kinds of stores this machine can run the service on: the SQLite stores need the `SQLite` trait.
        static var available: [Stores] {
            allCases.filter { stores in
                switch stores {
                case .postgres: postgresURL != nil
                case .sqlite: TaskFlowStoreKind.available.contains(.sqlite)
                default: true
                }
            }
        }

        /// Runs `body` with the service over fresh stores of this kind, whose settings tell time by `clock`, then
        /// removes what they stored.
        func withSessions(
            clock: any ExpiryClock = SystemExpiryClock(),
            _ body: (TaskFlowSessions) async throws -> Void
        ) async throws {
            let expiry = KVExpiry(clock: clock)
            switch self {
            case .memory:
                try await body(
                    TaskFlowSessions(
                        settings: InMemoryKVStore(expiry: expiry),
                        files: InMemoryFileStore(),
                        secrets: InMemoryCrypt()
                    )
                )
            case .disk, .reactiveDisk:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                defer { try? FileManager.default.removeItem(at: folder) }
                let disk = DiskKVStore(directory: .custom(folder), namespace: "settings", expiry: expiry)
                let settings: any AsyncExpiringKVStoring = self == .disk ? disk : ReactiveKVStore(disk)
                let secrets = try EncryptedFileCrypt(
                    directory: .custom(folder),
                    namespace: "secrets",
                    masterKey: .keyFile(folder.appendingPathComponent("master.key"))
                )
                try await body(
                    TaskFlowSessions(
                        settings: settings,
                        files: DiskFileStore(directory: .custom(folder), namespace: "files"),
                        secrets: secrets
                    )
                )
            case .sqlite:
                try await withSQLiteSessions(expiry: expiry, body)
            case .postgres:
                try await withPostgresSessions(expiry: expiry, body)
            }
        }

        /// Runs `body` with the service over the three SQLite stores of a new database file, then removes its folder.
        private func withSQLiteSessions(
            expiry: KVExpiry,
            _ body: (TaskFlowSessions) async throws -> Void
        ) async throws {
            #if SQLite
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
            try await body(
                TaskFlowSessions(
                    settings: SQLiteKVStore(database: database, namespace: "settings", expiry: expiry),
                    files: SQLiteFileStore(database: database, namespace: "files"),
                    secrets: SQLiteCrypt(
                        database: database,
                        namespace: "secrets",
                        masterKey: .keyFile(folder.appendingPathComponent("master.key"))
                    )
                )
            )
            #else
            Issue.record("the SQLite stores need the SQLite trait")
            #endif
        }

        /// Runs `body` with the service over the three PostgreSQL stores of a new namespace, then removes what they
        /// stored.
        private func withPostgresSessions(
            expiry: KVExpiry,
            _ body: (TaskFlowSessions) async throws -> Void
        ) async throws {
            #if Postgres
            let url = try #require(Self.postgresURL)
            let client = PostgresClient(configuration: try PostgresClient.Configuration(url: url))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                let namespace = "taskflow-test-\(UUID().uuidString)"
                let settings = PostgresKVStore(client: client, namespace: namespace, expiry: expiry)
                let files = PostgresFileStore(client: client, namespace: namespace)
                let secrets = PostgresCrypt(
                    client: client,
                    namespace: namespace,
                    masterKey: .symmetric(SymmetricKey(size: .bits256))
                )
                var failure: (any Error)?
                do {
                    try await body(TaskFlowSessions(settings: settings, files: files, secrets: secrets))
                } catch {
                    failure = error
                }
                try await settings.removeAll()
                try await files.deleteAll()
                try await secrets.deleteAll()
                if let failure { throw failure }
            }
            #else
            Issue.record("the PostgreSQL stores need the Postgres trait")
            #endif
        }
    }

    @Test(arguments: Stores.available)
    func signInKeepsEachUsersSessionAndSignOutRemovesOnlyTheirs(stores: Stores) async throws {
        try await stores.withSessions { sessions in
            let morning = Date(timeIntervalSinceReferenceDate: 800_000_000)
            try await sessions.signIn("ada", token: "t-ada", avatar: Data("a".utf8), at: morning)
            try await sessions.signIn("alan", token: "t-alan", avatar: Data("b".utf8), at: morning + 60)
            #expect(try await sessions.signedIn("ada") == morning)
            #expect(try await sessions.signedInUsers() == ["ada", "alan"])

            try await sessions.signOut("ada")
            #expect(try await sessions.signedIn("ada") == nil)
            #expect(try await sessions.signedIn("alan") == morning + 60)
            #expect(try await sessions.signedInUsers() == ["alan"])
        }
    }

    @Test(arguments: Stores.available)
    func aSessionEndsWithItsLifetimeOnEveryStore(stores: Stores) async throws {
        let clock = ManualExpiryClock()
        try await stores.withSessions(clock: clock) { sessions in
            try await sessions.signIn("ada", token: "t-ada", avatar: Data("a".utf8), at: clock.now)
            clock.advance(by: .seconds(86_400))
            try await sessions.signIn("alan", token: "t-alan", avatar: Data("b".utf8), at: clock.now)
            #expect(try await sessions.signedInUsers() == ["ada", "alan"])

            clock.advance(by: sessions.sessionLifetime - .seconds(86_400))
            #expect(try await sessions.signedIn("ada") == nil, "ada's session ended with its lifetime")
            #expect(try await sessions.signedIn("alan") != nil, "alan signed in a day later")
            #expect(try await sessions.signedInUsers() == ["alan"])

            try await sessions.signIn("ada", token: "t-ada-2", avatar: Data("a".utf8), at: clock.now)
            #expect(try await sessions.signedInUsers() == ["ada", "alan"], "a new sign-in starts a new session")
        }
    }

    @Test(arguments: Stores.available)
    func twoSignOutsOfOneUserAtOnceBothSucceed(stores: Stores) async throws {
        try await stores.withSessions { sessions in
            try await sessions.signIn("ada", token: "t", avatar: Data("a".utf8), at: Date())
            async let first: Void = sessions.signOut("ada")
            async let second: Void = sessions.signOut("ada")
            _ = try await (first, second)
            #expect(try await sessions.signedIn("ada") == nil)
        }
    }

    @Test func aFailedSignInOfAUserSignedInKeepsTheirSession() async throws {
        let files = InMemoryFileStore()
        let sessions = TaskFlowSessions(settings: InMemoryKVStore(), files: files, secrets: InMemoryCrypt())
        let morning = Date(timeIntervalSinceReferenceDate: 800_000_000)
        try await sessions.signIn("ada", token: "t1", avatar: Data("a".utf8), at: morning)
        let failing = TaskFlowSessions(
            settings: InMemoryKVStore(faults: StoreFaults([.next(.write, with: .outOfSpace)])),
            files: files,
            secrets: InMemoryCrypt()
        )
        await #expect(throws: KVStoreError.self) {
            try await failing.signIn("bob", token: "t2", avatar: Data("b".utf8), at: morning)
        }
        #expect(!files.exists(TaskFlowSessions.avatarPath(of: "bob")), "the avatar the failed call added is gone")
        #expect(try await sessions.signedIn("ada") == morning)
    }

    @Test func aSignInThatFailsHalfWayLeavesNoToken() async throws {
        let files = InMemoryFileStore(faults: StoreFaults([.next(.write, with: .outOfSpace)]))
        let secrets = InMemoryCrypt()
        let sessions = TaskFlowSessions(settings: InMemoryKVStore(), files: files, secrets: secrets)
        await #expect(throws: FileStoreError.self) {
            try await sessions.signIn("ada", token: "t", avatar: Data("a".utf8), at: Date())
        }
        #expect(try await sessions.signedIn("ada") == nil)
        #expect(try secrets.keys().isEmpty)
    }
}
