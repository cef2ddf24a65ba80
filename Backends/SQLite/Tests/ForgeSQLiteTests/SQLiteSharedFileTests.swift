import ForgeSQLite
import Foundation
import Testing

/// Stores on one file share its data across connections and processes, each namespace apart.
struct SQLiteSharedFileTests {
    @Test func aSecondDatabaseOnTheFileSeesWritesAndRemoves() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let first = SQLiteKVStore(fileURL: file, namespace: "store")
            let second = SQLiteKVStore(fileURL: file, namespace: "store")
            let key = KVKey<String>("theme")

            #expect(second.get(key) == nil)
            try first.set(key, value: "dark")
            #expect(second.get(key) == "dark")
            try second.set(key, value: "light")
            #expect(first.get(key) == "light")
            try first.remove(key)
            #expect(second.get(key) == nil)
            #expect(try second.keys().isEmpty)
        }
    }

    @Test func namespacesNeverSeeEachOthersValues() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let cache = SQLiteKVStore(database: database, namespace: "cache")
            let key = KVKey<Int>("count")

            try settings.set(key, value: 1)
            try cache.set(key, value: 2)
            try cache.removeAll()
            #expect(settings.get(key) == 1)
            #expect(cache.get(key) == nil)
            #expect(try settings.keys() == ["count"])
        }
    }

    /// A namespace alone in the table is emptied whole; beside others, before or after it in the key's order, only its
    /// rows go.
    @Test func removeAllTakesOnlyItsNamespaceWhetherAloneOrNot() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let (before, middle, after) = (
                SQLiteKVStore(database: database, namespace: "a"),
                SQLiteKVStore(database: database, namespace: "b"),
                SQLiteKVStore(database: database, namespace: "c")
            )
            let key = KVKey<Int>("count")

            try middle.set(key, value: 1, expiresAfter: .seconds(3600))
            try middle.removeAll()
            #expect(try middle.keys().isEmpty)
            for store in [before, middle, after] { try store.set(key, value: 2) }
            try middle.removeAll()
            #expect(middle.get(key) == nil)
            #expect(before.get(key) == 2 && after.get(key) == 2)
            try before.removeAll()
            #expect(after.get(key) == 2)
            try after.removeAll()
            #expect(try SQLiteKVStore.namespaces(database: database).isEmpty)
        }
    }

    /// Another process: the `sqlite3` shell, when the machine has it, reads what the store wrote and writes a value
    /// the store then reads.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func anotherProcessSeesWritesAndIsSeen() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteKVStore(fileURL: file, namespace: "store")
            try store.set(KVKey<String>("theme"), value: "dark")

            let read = try sqlite3(
                file,
                "SELECT value FROM forge_kv WHERE namespace = CAST('store' AS BLOB) AND name = CAST('theme' AS BLOB);"
            )
            #expect(read == "\"dark\"\n")
            _ = try sqlite3(
                file,
                "INSERT OR REPLACE INTO forge_kv (namespace, name, value) VALUES (CAST('store' AS BLOB), CAST('theme' AS BLOB), '\"light\"');"
            )
            #expect(store.get(KVKey<String>("theme")) == "light")
        }
    }

    /// Runs `sql` on `file` in the `sqlite3` shell, a process of its own, and returns what it printed.
    private func sqlite3(_ file: URL, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-cmd", ".timeout 5000", file.path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
