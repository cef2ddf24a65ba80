@testable import ForgeSQLite
import Foundation
import GRDB
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The writer's queue: writes that queue while a commit is in flight are committed together, by one caller, each in a
/// savepoint, so that one that fails fails alone.
struct GroupCommitTests {
    /// A write that stores `name` in the table `t`, or throws `Refused` once it has.
    private static func inserting(_ name: String, thenFailing: Bool = false) -> GroupCommit.Write {
        GroupCommit.Write(durability: .atomic, keys: [], isOneStatement: false) { db in
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: [name])
            if thenFailing { throw Refused() }
        }
    }

    private struct Refused: Error {}

    @Test func aWriteThatFailsInAGroupIsRolledBackAloneAndTheOthersCommit() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "CREATE TABLE t (name TEXT)") }
        let group = [Self.inserting("a"), Self.inserting("b", thenFailing: true), Self.inserting("c")]

        let failures = database.writeWithoutTransaction { db in GroupCommit.commit(group, on: db) }

        #expect(failures.map { $0 is Refused } == [false, true, false])
        #expect(
            try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") } == ["a", "c"]
        )
    }

    @Test func aWriteAloneThatFailsChangesNothing() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "CREATE TABLE t (name TEXT)") }

        let failures = database.writeWithoutTransaction { db in
            GroupCommit.commit([Self.inserting("a", thenFailing: true)], on: db)
        }

        #expect(failures.count == 1 && failures[0] is Refused)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
    }

    /// A first caller's commit is held until three more callers have queued: they are committed as one group, by one
    /// of them, and each returns with its own outcome.
    @Test func writesQueuedBehindACommitInFlightAreCommittedTogether() async throws {
        let queue = GroupCommit()
        let groups = Locked<[[String]]>([])
        let names = ["first", "second", "refused", "fourth"]
        let writes = names.map { _ in GroupCommit.Write(durability: .atomic, keys: [], isOneStatement: true) { _ in } }
        let nameOf = { @Sendable (write: GroupCommit.Write) in names[writes.firstIndex { $0 === write } ?? 0] }
        let commit: @Sendable ([GroupCommit.Write]) -> [(any Error)?] = { group in
            if groups.withLock({ $0.isEmpty }) {
                groups.withLock { $0.append([]) }
                // The first commit stays in flight until the three others wait behind it.
                while queue.waitingCount < 3 { sched_yield() }
            }
            let committed = group.map(nameOf)
            groups.withLock { $0.append(committed) }
            return committed.map { $0 == "refused" ? Refused() : nil }
        }

        async let first: Void = onOwnThread { try queue.run(writes[0], commit: commit) }
        while groups.withLock({ $0.isEmpty }) { await Task.yield() }
        let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { tasks in
            for (name, write) in zip(names, writes).dropFirst() {
                tasks.addTask {
                    let failed = try await onOwnThread { () -> Bool in
                        do {
                            try queue.run(write, commit: commit)
                            return false
                        } catch is Refused {
                            return true
                        }
                    }
                    return (name, failed)
                }
            }
            return try await tasks.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
        }
        try await first

        #expect(outcomes == ["second": false, "refused": true, "fourth": false])
        let committed = groups.withLock { $0 }.dropFirst()
        #expect(committed.count == 2)
        #expect(committed.first == ["first"])
        #expect(Set(committed.last ?? []) == ["second", "refused", "fourth"])
    }
}

/// What a group does when SQLite rolls its whole transaction back by itself, and writes that must run alone.
struct GroupCommitRollbackTests {
    private struct Refused: Error {}

    /// A write that fails after rolling the transaction back, as SQLite may on a full disk or an I/O error: it fails,
    /// and the writes before and after it are committed again without it.
    @Test func theOthersOfAGroupThatSQLiteRolledBackAreCommittedWithoutTheFailingWrite() throws {
        let database = try DatabaseQueue()
        try database.write { db in try db.execute(sql: "CREATE TABLE t (name TEXT)") }
        let inserting = { (name: String) in
            GroupCommit.Write(durability: .atomic, keys: [], isOneStatement: true) { db in
                try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: [name])
            }
        }
        let rollingBack = GroupCommit.Write(durability: .atomic, keys: [], isOneStatement: true) { db in
            try db.execute(sql: "INSERT INTO t (name) VALUES ('lost')")
            try db.execute(sql: "ROLLBACK")
            throw Refused()
        }

        let failures = database.writeWithoutTransaction { db in
            GroupCommit.commit([inserting("a"), rollingBack, inserting("c")], on: db)
        }

        #expect(failures.map { $0 == nil } == [true, false, true])
        #expect(
            try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") } == ["a", "c"]
        )
    }

    /// A rotation's progress is told on the caller's thread, whatever other threads write meanwhile: it runs alone.
    @Test func aRotationsProgressIsToldOnTheCallersThread() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey(1))
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            for index in 0..<50 { try secrets.set("s3cr3t", for: CryptKey<String>(key: "token-\(index)")) }

            let threads = try await onOwnThread { () -> Set<String> in
                let caller = "\(pthread_self())"
                let writer = Thread {
                    for index in 0..<200 { try? settings.set(KVKey<Int>("count"), value: index) }
                }
                writer.start()
                let told = Locked<Set<String>>([])
                _ = try secrets.rotateMasterKey(to: testMasterKey(2)) { _ in
                    told.withLock { _ = $0.insert("\(pthread_self())" == caller ? "caller" : "other") }
                }
                return told.withLock { $0 }
            }
            #expect(threads == ["caller"])
        }
    }
}

/// Groups of the stores' own writes: a first write holds the writer until the others are queued behind it, so that they
/// are committed as one group.
struct GroupCommitOfStoresTests {
    /// Runs `queued` on threads of their own while a first write holds the writer, until all of them wait behind it;
    /// returns what each returned, in order.
    private static func grouped<Value: Sendable>(
        on database: SQLiteDatabase,
        _ queued: [@Sendable () throws -> Value]
    ) async throws -> [Result<Value, any Error>] {
        let held = Locked(false)
        async let first: Void = onOwnThread {
            try database.write(.atomic, changing: []) { _ in
                held.withLock { $0 = true }
                while database.writes.waitingCount < queued.count { sched_yield() }
            }
        }
        while !held.withLock({ $0 }) { await Task.yield() }
        let results = try await withThrowingTaskGroup(of: (Int, Result<Value, any Error>).self) { tasks in
            for (index, body) in queued.enumerated() {
                tasks.addTask { (index, try await onOwnThread { Result { try body() } }) }
            }
            return try await tasks.reduce(into: [Int: Result<Value, any Error>]()) { $0[$1.0] = $1.1 }
        }
        try await first
        return queued.indices.compactMap { results[$0] }
    }

    @Test func aGroupWithAFlushedWriteIsCommittedFlushed() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            try database.prepare()
            let results = try await Self.grouped(
                on: database,
                [
                    { @Sendable in try database.write(.flushed, changing: []) { _ in 0 } },
                    { @Sendable in
                        try database.write(.atomic, changing: []) { db in
                            try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
                        }
                    },
                ]
            )
            #expect(try results[1].get() == 2)  // FULL: the group holds a flushed write
        }
    }

    @Test func aWriteThatFailsInAGroupFailsWithItsOwnStoresErrorAndTheOthersCommit() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let files = SQLiteFileStore(database: database, namespace: "files")
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: testMasterKey(1))
            try files.write(Data("old".utf8), at: StoredFilePath(validating: "a.txt"), replacing: true)
            try secrets.set("s3cr3t", for: CryptKey<String>(key: "token"))

            let results = try await Self.grouped(
                on: database,
                [
                    { @Sendable in try settings.set(KVKey<Int>("count"), value: 1) },
                    { @Sendable in
                        try files.write(Data("new".utf8), at: StoredFilePath(validating: "a.txt"), replacing: false)
                    },
                    { @Sendable in try secrets.set("n3w", for: CryptKey<String>(key: "token")) },
                ]
            )

            #expect((try? results[0].get()) != nil)
            #expect(throws: FileStoreError.alreadyExists(path: "a.txt")) { try results[1].get() }
            #expect((try? results[2].get()) != nil)
            #expect(settings.get(KVKey<Int>("count")) == 1)
            #expect(try files.contents(at: StoredFilePath(validating: "a.txt")) == Data("old".utf8))
            #expect(try secrets.get(CryptKey<String>(key: "token")) == "n3w")
        }
    }
}
