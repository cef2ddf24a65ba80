import ForgeCore
import ForgeKVStore
import Foundation
import Testing

/// Migrations as a key declares them, on a store a user wrote before `value(for:)` and `keys()` existed, and the
/// rules every store shares (tried in order, the first found wins, a failing conversion is a decoding failure).
struct KVMigrationTests {
    /// A store as a user wrote it against the five original requirements: JSON in a dictionary.
    final class UsersOwnStore: KVStoring, Sendable {
        private let values = LockedState<[String: Data]>([:])

        func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
            values.withLock { $0[key.key] }.flatMap { try? JSONDecoder().decode(T.self, from: $0) }
        }

        func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
            let data = try JSONEncoder().encode(value)
            values.withLock { $0[key.key] = data }
        }

        func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
            values.withLock { $0[key.key] = nil }
        }

        func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
            values.withLock { $0[key.key] != nil }
        }

        func removeAll() throws {
            values.withLock { $0.removeAll() }
        }
    }

    struct Task: Codable, Sendable, Equatable {
        var title: String
        var done: Bool
    }

    @Test func aStoreWrittenBeforeValueForTellsMissingFromUndecodableAndMigrates() throws {
        let store = UsersOwnStore()
        try store.set(KVKey<[String]>("tasks"), value: ["Write the article"])

        #expect(try store.value(for: KVKey<[String]>("unset")) == nil)
        #expect(throws: KVStoreError.self) { try store.value(for: KVKey<[Task]>("tasks")) }
        let tasks = KVKey<[Task]>("tasks", migrations: .from([String].self) { $0.map { Task(title: $0, done: false) } })
        #expect(try store.value(for: tasks) == [Task(title: "Write the article", done: false)])
        #expect(store.get(KVKey<[String]>("tasks")) == ["Write the article"], "a read never writes back")
    }

    @Test func aStoreWrittenBeforeKeysThrowsListFailedNamingIt() throws {
        let error = #expect(throws: KVStoreError.self) { try UsersOwnStore().keys() }
        guard case .listFailed(let reason) = error else {
            Issue.record("expected listFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.description.contains("UsersOwnStore"))
    }

    @Test func migrationsAreTriedInOrderAndTheFirstValueFoundWins() throws {
        let store = InMemoryKVStore()
        try store.set(KVKey<Int>("count.v1"), value: 1)
        try store.set(KVKey<Int>("count.v2"), value: 2)
        let count = KVKey<Int>("count", migrations: .renamed(from: "count.v2"), .renamed(from: "count.v1"))
        #expect(try store.value(for: count) == 2)
        try store.remove(KVKey<Int>("count.v2"))
        #expect(try store.value(for: count) == 1)
        try store.set(count, value: 3)
        #expect(try store.value(for: count) == 3)
    }

    @Test func aValueThatNeitherDecodesNorMigratesThrowsDecodingFailedForTheKey() throws {
        let store = InMemoryKVStore()
        try store.set(KVKey<Bool>("tasks"), value: true)
        let tasks = KVKey<[Task]>("tasks", migrations: .from([String].self) { $0.map { Task(title: $0, done: false) } })
        let error = #expect(throws: KVStoreError.self) { try store.value(for: tasks) }
        #expect(error?.key == "tasks")
        #expect(store.get(tasks) == nil)
        #expect(store.get(KVKey<Bool>("tasks")) == true)
    }

    @Test func aConversionThatThrowsIsADecodingFailureAndLosesNothing() throws {
        struct Refused: Error {}
        let store = InMemoryKVStore()
        try store.set(KVKey<String>("limit"), value: "lots")
        let limit = KVKey<Int>(
            "limit",
            migrations: .from(String.self) { text in
                guard let number = Int(text) else { throw Refused() }
                return number
            }
        )
        let error = #expect(throws: KVStoreError.self) { try store.value(for: limit) }
        guard case .decodingFailed(let key, let underlying) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(key == "limit")
        #expect(underlying.description.contains("migration from String"))
        #expect(store.get(KVKey<String>("limit")) == "lots")
    }

    @Test func aKeyIsTheSameKeyWhateverItsMigrations() {
        let plain = KVKey<Int>("count")
        let migrated = KVKey<Int>("count", migrations: .renamed(from: "total"), .renamed(from: "count"))
        #expect(plain == migrated)
        #expect(Set([plain, migrated]).count == 1)
        #expect(migrated.storedNames == ["count", "total"])
        #expect(migrated.withoutMigrations.migrations.isEmpty)
        #expect(plain.storedNames == ["count"])
    }
}
