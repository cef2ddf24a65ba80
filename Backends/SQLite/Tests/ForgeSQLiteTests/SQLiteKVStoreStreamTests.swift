@testable import ForgeSQLite
import Foundation
import Testing

/// Streams of a `SQLiteKVStore` see the store's own writes, and those of other connections and processes on the file,
/// without polling.
struct SQLiteKVStoreStreamTests {
    @Test func aStreamSeesTheStoresOwnWritesInOrder() async throws {
        try await withTemporaryFolder { folder in
            let store = SQLiteKVStore(fileURL: databaseFile(in: folder), namespace: "store")
            let key = KVKey<Int>("count")
            let values = store.stream(key)
            try store.set(key, value: 1)
            try store.set(key, value: 2)
            try store.remove(key)

            let seen = await collect(values) { $0.count == 4 }
            #expect(seen == [nil, 1, 2, nil])
        }
    }

    @Test func aReactiveStoreOverTheStoreSeesWritesOfAnotherStoreOnTheDatabase() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let reactive = ReactiveKVStore(SQLiteKVStore(database: database, namespace: "store"))
            let writer = SQLiteKVStore(database: database, namespace: "store")
            let key = KVKey<String>("theme")
            let values = reactive.stream(key)
            try writer.set(key, value: "dark")

            let seen = await collect(values) { $0.last == "dark" }
            #expect(seen == [nil, "dark"])
        }
    }

    @Test func aStreamSeesAnotherConnectionsWritesAndRemoves() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            let other = SQLiteKVStore(fileURL: file, namespace: "store")
            let key = KVKey<String>("theme")
            let values = store.stream(key)

            try other.set(key, value: "dark")
            let written = await collect(values) { $0.last == "dark" }
            #expect(written.last == "dark")
            try other.remove(key)
            let removed = await collect(values) { $0.last == .some(nil) }
            #expect(removed == [nil])
        }
    }

    /// Another process: the `sqlite3` shell writes and deletes a row in the table's format.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func aStreamSeesAnotherProcessesCommits() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            let key = KVKey<String>("theme")
            try store.set(key, value: "dark")
            let values = store.stream(key)

            try sqlite3(
                file,
                "INSERT OR REPLACE INTO forge_kv (namespace, name, value) VALUES (CAST('store' AS BLOB), CAST('theme' AS BLOB), '\"light\"');"
            )
            let written = await collect(values) { $0.last == "light" }
            #expect(written == ["dark", "light"])
            try sqlite3(file, "DELETE FROM forge_kv WHERE namespace = CAST('store' AS BLOB);")
            let removed = await collect(values) { $0.last == .some(nil) }
            #expect(removed == [nil])
        }
    }

    @Test func streamsOfAnotherNamespaceAreNotWokenIntoWrongValues() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let cache = SQLiteKVStore(database: database, namespace: "cache")
            let elsewhere = SQLiteKVStore(fileURL: file, namespace: "settings")
            let key = KVKey<String>("theme")
            try cache.set(key, value: "calm")
            let values = cache.stream(key)

            try settings.set(key, value: "dark")
            try elsewhere.set(key, value: "light")
            try elsewhere.remove(key)
            try cache.set(key, value: "bright")
            let seen = await collect(values) { $0.last == "bright" }
            #expect(seen == ["calm", "bright"])
        }
    }

    @Test func theFileIsWatchedWhileObservedOnly() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let store = SQLiteKVStore(database: database, namespace: "store")
            #expect(!database.changes.isWatching)
            let first = store.observeChanges { _ in }
            let second = SQLiteKVStore(database: database, namespace: "other").observeChanges { _ in }
            #expect(database.changes.isWatching)
            first.end()
            #expect(database.changes.isWatching)
            second.end()
            #expect(!database.changes.isWatching)
        }
    }

    @Test func anObserverIsToldOfAnotherConnectionsCommitAsAnyKey() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            let (changes, continuation) = AsyncStream<String?>.makeStream()
            let observation = store.observeChanges { continuation.yield($0) }
            try store.set(KVKey<Int>("own"), value: 1)
            try SQLiteKVStore(fileURL: file, namespace: "store").set(KVKey<Int>("foreign"), value: 2)

            let seen = await collect(changes) { $0.last == .some(nil) }
            #expect(seen == ["own", nil])
            observation.end()
        }
    }

    @Test func anObserverOfADatabaseWhoseFolderIsNotMadeYetIsToldOfAnotherConnectionsCommit() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("not-made-yet/forge.sqlite")
            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            let (changes, continuation) = AsyncStream<String?>.makeStream()
            let observation = store.observeChanges { continuation.yield($0) }
            try SQLiteKVStore(fileURL: file, namespace: "store").set(KVKey<Int>("foreign"), value: 2)

            let seen = await collect(changes) { $0.last == .some(nil) }
            #expect(seen == [nil])
            observation.end()
        }
    }

    /// The values `values` emits from now until `isComplete` holds for them, or what came within 10 seconds (so that
    /// a change never seen fails the test instead of hanging it).
    private func collect<T: Sendable>(
        _ values: AsyncStream<T>,
        until isComplete: @escaping @Sendable ([T]) -> Bool
    ) async -> [T] {
        await withTaskGroup(of: [T]?.self) { group in
            group.addTask {
                var seen: [T] = []
                for await value in values {
                    seen.append(value)
                    if isComplete(seen) { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }

    /// Runs `sql` on `file` in the `sqlite3` shell, a process of its own.
    private func sqlite3(_ file: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-cmd", ".timeout 5000", file.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
