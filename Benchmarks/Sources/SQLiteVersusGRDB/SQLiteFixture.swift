import BenchmarkSupport
import ForgeKVStore
import ForgeSQLite
import Foundation
import GRDB
import Synchronization

/// Both sides' databases in one folder, and the pairs timed on them.
///
/// Ours: one `SQLiteDatabase` whose stores keep their namespaces apart (`.atomic` and `.flushed` stores of the same
/// file, as an app's are), a second `SQLiteDatabase` on the file, for another connection's writes, and a file each
/// for the listing and for the transactions and removals of 100,000 keys. GRDB: a pool per durability, a pool each for
/// the listing and for the 100,000 keys, and a second pool on the first file: each side's tables hold the same rows.
/// DiskKVStore: a folder per durability.
@MainActor
final class SQLiteFixture {
    static let profileKey = KVKey<Profile>("profile")
    static let otherKey = KVKey<Profile>("other")

    private let database: SQLiteDatabase
    private let otherDatabase: SQLiteDatabase
    private let listedDatabase: SQLiteDatabase
    private let removedDatabase: SQLiteDatabase
    private let atomic: SQLiteKVStore
    private let flushed: SQLiteKVStore
    private let otherConnection: SQLiteKVStore
    private let listed: SQLiteKVStore
    private let removed: SQLiteKVStore
    private let files: SQLiteFileStore
    private let grdb: GRDBPeer
    private let grdbFull: GRDBPeer
    private let grdbOtherConnection: GRDBPeer
    private let grdbListed: GRDBPeer
    private let grdbRemoved: GRDBPeer
    private let disk: DiskKVStore
    private let diskFlushed: DiskKVStore

    /// Opens every database in `folder`, and stores the values each read finds; throws when any of it fails.
    init(folder: URL) throws {
        let file = folder.appendingPathComponent("ours.sqlite")
        database = SQLiteDatabase(fileURL: file)
        otherDatabase = SQLiteDatabase(fileURL: file)
        listedDatabase = SQLiteDatabase(fileURL: folder.appendingPathComponent("ours-listed.sqlite"))
        removedDatabase = SQLiteDatabase(fileURL: folder.appendingPathComponent("ours-removed.sqlite"))
        atomic = SQLiteKVStore(database: database, namespace: "bench")
        flushed = SQLiteKVStore(database: database, namespace: "bench-flushed", durability: .flushed)
        otherConnection = SQLiteKVStore(database: otherDatabase, namespace: "bench")
        listed = SQLiteKVStore(database: listedDatabase, namespace: "bench")
        removed = SQLiteKVStore(database: removedDatabase, namespace: "bench")
        files = SQLiteFileStore(database: database, namespace: "bench-files")
        grdb = try GRDBPeer(path: folder.path + "/grdb.sqlite", synchronous: "NORMAL")
        grdbFull = try GRDBPeer(path: folder.path + "/grdb-full.sqlite", synchronous: "FULL")
        grdbOtherConnection = try GRDBPeer(path: folder.path + "/grdb.sqlite", synchronous: "NORMAL")
        grdbListed = try GRDBPeer(path: folder.path + "/grdb-listed.sqlite", synchronous: "NORMAL")
        grdbRemoved = try GRDBPeer(path: folder.path + "/grdb-removed.sqlite", synchronous: "NORMAL")
        disk = DiskKVStore(directory: .custom(folder.appendingPathComponent("disk")), namespace: "bench")
        diskFlushed = DiskKVStore(
            directory: .custom(folder.appendingPathComponent("disk-flushed")),
            namespace: "bench",
            durability: .flushed
        )

        try atomic.set(Self.profileKey, value: .sample)
        try grdb.set(Self.profileKey.key, .sample)
        try disk.set(Self.profileKey, value: .sample)
        let listedKeys = (0..<10_000).map { KVKey<Profile>(String(format: "key-%05d", $0)) }
        try StorageTransaction.run { transaction in
            for key in listedKeys { try transaction.set(key, value: .sample, in: listed) }
        }
        try grdbListed.set(listedKeys.map(\.key), .sample)
        // Each database read once, as an app reads before it writes: its reading connections are open.
        for store in [atomic, flushed, otherConnection, listed, removed] { _ = store.get(Self.profileKey) }
        // The files the loads read, so that a load pair runs without its save pair (`--only`).
        for size in Self.fileSizes {
            let data = Data(repeating: 0xA5, count: size)
            try files.write(data, at: StoredFilePath(validating: Self.filePath(size)), replacing: true)
            try grdb.save(data, to: Self.filePath(size))
        }
    }

    /// The sizes of the files saved and loaded: 1 KiB and 1 MiB.
    static let fileSizes = [1 << 10, 1 << 20]

    /// The path of the file of `size` bytes, on both sides.
    static func filePath(_ size: Int) -> String { "doc-\(size).bin" }

    /// Both writers' journal mode and `synchronous` level at each durability, read back, as a line to print.
    ///
    /// - Throws: ``SettingsMismatch`` when either side's writer is not in WAL mode with `NORMAL` for `.atomic` and
    ///   `FULL` for `.flushed`.
    func checkedSettings() throws -> String {
        let ours = (try database.writerSettings(for: .atomic), try database.writerSettings(for: .flushed))
        let peer = (try grdb.writerSettings(), try grdbFull.writerSettings())
        let line =
            "Writers read back: ours .atomic \(ours.0.journalMode)/synchronous \(ours.0.synchronous), "
            + ".flushed \(ours.1.journalMode)/synchronous \(ours.1.synchronous); "
            + "GRDB NORMAL pool \(peer.0.journalMode)/synchronous \(peer.0.synchronous), "
            + "FULL pool \(peer.1.journalMode)/synchronous \(peer.1.synchronous)"
        let expected =
            ours.0.journalMode == "wal" && ours.0.synchronous == 1 && ours.1.journalMode == "wal"
            && ours.1.synchronous == 2 && peer.0.journalMode == "wal" && peer.0.synchronous == 1
            && peer.1.journalMode == "wal" && peer.1.synchronous == 2
        guard expected else { throw SettingsMismatch(line: line) }
        return line
    }

    /// Closes our databases; GRDB's pools close when released.
    func close() throws {
        for database in [database, otherDatabase, listedDatabase, removedDatabase] { try database.close() }
    }

    /// The pairs, in the order of the table.
    func pairs() -> [Pair] {
        keyValuePairs() + bulkPairs() + writerPairs() + filePairs()
    }

    /// Reads and writes of one key.
    private func keyValuePairs() -> [Pair] {
        let values = Alternations()
        let key = Self.profileKey
        let other = Self.otherKey
        return [
            Pair(
                group: "get, the same key again",
                batch: 2_000,
                rounds: 15,
                sides: [
                    Side(name: "ours") { blackHole(self.atomic.get(key)) },
                    Side(name: "DiskKVStore") { blackHole(self.disk.get(key)) },
                    Side(name: "GRDB") { blackHole(try self.grdb.get(key.key)) },
                ]
            ),
            readAfterWrite(
                "get, after another connection wrote",
                ours: { try self.otherConnection.set(other, value: values.ours.next()) },
                grdb: { try self.grdbOtherConnection.set(other.key, values.grdb.next()) }
            ),
            readAfterWrite(
                "get, after our own set of another key",
                ours: { try self.atomic.set(other, value: values.ours.next()) },
                grdb: { try self.grdb.set(other.key, values.grdb.next()) }
            ),
            Pair(
                group: "set, .atomic (synchronous = NORMAL)",
                batch: 300,
                rounds: 15,
                sides: [
                    Side(name: "ours") { try self.atomic.set(key, value: values.ours.next()) },
                    Side(name: "DiskKVStore") { try self.disk.set(key, value: values.disk.next()) },
                    Side(name: "GRDB") { try self.grdb.set(key.key, values.grdb.next()) },
                ]
            ),
            Pair(
                group: "set, .flushed (synchronous = FULL)",
                batch: 40,
                rounds: 15,
                sides: [
                    Side(name: "ours") { try self.flushed.set(key, value: values.ours.next()) },
                    Side(name: "DiskKVStore") { try self.diskFlushed.set(key, value: values.disk.next()) },
                    Side(name: "GRDB") { try self.grdbFull.set(key.key, values.grdb.next()) },
                ]
            ),
        ]
    }

    /// A read of the profile after each side's write of another key, the write not timed: the read the cache cannot
    /// answer.
    private func readAfterWrite(
        _ group: String,
        ours: @escaping @MainActor () throws -> Void,
        grdb: @escaping @MainActor () throws -> Void
    ) -> Pair {
        let key = Self.profileKey
        return Pair(
            group: group,
            batch: 300,
            rounds: 15,
            sides: [
                Side(name: "ours", prepare: ours) { blackHole(self.atomic.get(key)) },
                Side(name: "GRDB", prepare: grdb) { blackHole(try self.grdb.get(key.key)) },
            ]
        )
    }

    /// Transactions, listings and removals of many keys.
    private func bulkPairs() -> [Pair] {
        let values = Alternations()
        let hundred = (0..<100).map { KVKey<Profile>("profile-\($0)") }
        let hundredNames = hundred.map(\.key)
        let many = (0..<100_000).map { KVKey<Profile>("key-\($0)") }
        let manyNames = many.map(\.key)
        return [
            Pair(
                group: "transaction of 100 sets",
                batch: 20,
                rounds: 15,
                sides: [
                    Side(name: "ours") {
                        let value = values.ours.next()
                        try StorageTransaction.run { transaction in
                            for key in hundred { try transaction.set(key, value: value, in: self.atomic) }
                        }
                    },
                    Side(name: "GRDB") { try self.grdb.set(hundredNames, values.grdb.next()) },
                ]
            ),
            Pair(
                group: "transaction of 100,000 sets",
                batch: 1,
                rounds: 5,
                sides: [
                    Side(name: "ours") {
                        let value = values.ours.next()
                        try StorageTransaction.run { transaction in
                            for key in many { try transaction.set(key, value: value, in: self.removed) }
                        }
                    },
                    Side(name: "GRDB") { try self.grdbRemoved.set(manyNames, values.grdb.next()) },
                ]
            ),
            Pair(
                group: "keys() of 10,000",
                batch: 10,
                rounds: 15,
                sides: [
                    Side(name: "ours") { blackHole(try self.listed.keys()) },
                    Side(name: "GRDB") { blackHole(try self.grdbListed.keys()) },
                ]
            ),
            Pair(
                group: "removeAll of 100,000",
                batch: 1,
                rounds: 5,
                sides: [
                    Side(
                        name: "ours",
                        prepare: {
                            try StorageTransaction.run { transaction in
                                for key in many { try transaction.set(key, value: .sample, in: self.removed) }
                            }
                        }
                    ) { try self.removed.removeAll() },
                    Side(name: "GRDB", prepare: { try self.grdbRemoved.set(manyNames, .sample) }) {
                        try self.grdbRemoved.removeAll()
                    },
                ]
            ),
        ]
    }

    /// Writers on threads of their own, each setting keys of its own `.flushed`: the time per write of all of them
    /// together (the inverse of the throughput).
    private func writerPairs() -> [Pair] {
        let values = Alternations()
        let writes = 256
        return [1, 2, 8, 32]
            .map { writers in
                let perWriter = writes / writers
                let keys = (0..<writers).map { writer in (0..<perWriter).map { KVKey<Profile>("w\(writer)-\($0)") } }
                return Pair(
                    group: "\(writers) writers of .flushed sets, time per write",
                    batch: 1,
                    rounds: 5,
                    operationsPerCall: writes,
                    sides: [
                        Side(name: "ours") {
                            let value = values.ours.next()
                            try Self.runWriters(keys) { [flushed = self.flushed] key in
                                try flushed.set(key, value: value)
                            }
                        },
                        Side(name: "GRDB") {
                            let value = values.grdb.next()
                            try Self.runWriters(keys) { [grdbFull = self.grdbFull] key in
                                try grdbFull.set(key.key, value)
                            }
                        },
                    ]
                )
            }
    }

    /// Files of 1 KiB and 1 MiB saved and loaded, beside a GRDB blob row.
    private func filePairs() -> [Pair] {
        zip(Self.fileSizes, [("1 KiB", 300), ("1 MiB", 10)])
            .flatMap { size, labelAndBatch in
                let (label, batch) = labelAndBatch
                // Each side saves two contents in turn, so that every save changes the file's bytes.
                let contents = [Data(repeating: 0xA5, count: size), Data(repeating: 0x5A, count: size)]
                let (ourTurn, grdbTurn) = (Alternation(), Alternation())
                let path = Self.filePath(size)
                return [
                    Pair(
                        group: "SQLiteFileStore save, \(label)",
                        batch: batch,
                        rounds: 15,
                        sides: [
                            Side(
                                name: "ours",
                                awaiting: { try await self.files.save(contents[ourTurn.next()], to: path) }
                            ),
                            Side(name: "GRDB") { try self.grdb.save(contents[grdbTurn.next()], to: path) },
                        ]
                    ),
                    Pair(
                        group: "SQLiteFileStore load, \(label)",
                        batch: batch,
                        rounds: 15,
                        sides: [
                            Side(name: "ours", awaiting: { blackHole(try await self.files.load(path)) }),
                            Side(name: "GRDB") { blackHole(try self.grdb.load(path)) },
                        ]
                    ),
                ]
            }
    }

    /// Runs `write` for each key of each list on a thread per list, and waits for all of them; throws the first
    /// failure.
    private nonisolated static func runWriters(
        _ keys: [[KVKey<Profile>]],
        _ write: @escaping @Sendable (KVKey<Profile>) throws -> Void
    ) throws {
        let group = DispatchGroup()
        let failure = Mutex<(any Error)?>(nil)
        for list in keys {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    for key in list { try write(key) }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
            thread.start()
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// A writer whose journal mode or `synchronous` level is not the one compared: the run stops.
struct SettingsMismatch: Error, CustomStringConvertible {
    let line: String
    var description: String { "the writers are not at the durability compared: \(line)" }
}

/// 0 and 1 in turn, one per call.
@MainActor
final class Alternation {
    private var calls = 0

    /// 0 on the first call, then 1, then 0 again.
    func next() -> Int {
        defer { calls += 1 }
        return calls % 2
    }
}

/// A ``ProfileAlternation`` per side, so that every write of a side changes the value it writes: GRDB's upsert, given
/// the bytes a row holds already, writes no page, and a commit with no page written costs no `fsync`.
struct Alternations {
    let ours = ProfileAlternation()
    let disk = ProfileAlternation()
    let grdb = ProfileAlternation()
}
