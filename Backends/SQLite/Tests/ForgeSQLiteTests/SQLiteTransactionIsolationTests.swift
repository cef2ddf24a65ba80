@testable import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Another `SQLiteDatabase` on the file (as another process would open it) finds a transaction across kinds whole or
/// not at all: every read of the three tables in one snapshot finds one group of values, files and secrets, all of one
/// transaction.
struct SQLiteTransactionIsolationTests {
    /// How many values, files and secrets a move writes, and as many it removes.
    static let groupSize = 8
    /// How many moves the writer makes while the other handle reads.
    static let rounds = 60

    @Test func anotherHandleSeesATransactionWholeOrNotAtAll() async throws {
        try await withStoresOfOneDatabase { stores in
            let other = SQLiteDatabase(fileURL: stores.database.fileURL)
            try await StorageTransaction.run { transaction in try Self.stageMove(0, stores, in: transaction) }

            let finished = Locked(false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { finished.withLock { $0 = true } }
                    for round in 1...Self.rounds {
                        try await StorageTransaction.run { transaction in
                            try Self.stageMove(round, stores, in: transaction)
                        }
                        await Task.yield()
                    }
                }
                group.addTask {
                    var reads = 0
                    while reads == 0 || !finished.withLock({ $0 }) {
                        try Self.expectOneWholeTransaction(in: other)
                        reads += 1
                        await Task.yield()
                    }
                }
                try await group.waitForAll()
            }
            #expect(try Self.snapshot(of: other).round == Self.rounds)
        }
    }

    /// Stages the move of `round`, in one transaction.
    ///
    /// The values, files and secrets of the other group are written with the round's number, and those of the group
    /// before removed (none in round 0). Rounds alternate whether they write or remove first, so that stores that
    /// applied them one by one would show both groups, or neither.
    static func stageMove(_ round: Int, _ stores: StoresOfOneDatabase, in transaction: StorageTransaction) throws {
        let (from, to) = round % 2 == 1 ? ("a", "b") : ("b", "a")
        let steps = round % 4 < 2 ? ["write", "remove"] : ["remove", "write"]
        for step in steps {
            for index in 0..<groupSize {
                if step == "write" {
                    try transaction.set(KVKey<Int>("\(to).\(index)"), value: round, in: stores.settings)
                    try transaction.save(Data("\(round)".utf8), to: "\(to)/\(index)", in: stores.files)
                    try transaction.set(round, for: CryptKey<Int>(key: "\(to).\(index)"), in: stores.secrets)
                } else if round > 0 {
                    try transaction.remove(KVKey<Int>("\(from).\(index)"), in: stores.settings)
                    try transaction.delete("\(from)/\(index)", in: stores.files)
                    try transaction.delete(CryptKey<Int>(key: "\(from).\(index)"), in: stores.secrets)
                }
            }
        }
    }

    /// What one snapshot of the database finds: the rows of each table, and the rounds their values and files hold.
    struct Snapshot {
        let valueNames: [String]
        let filePaths: [String]
        let secretCount: Int
        let rounds: Set<String>

        /// The one round every value and file holds, or nil when they hold several.
        var round: Int? {
            rounds.count == 1 ? rounds.first.flatMap { Int($0) } : nil
        }
    }

    /// Reads the three tables in one read transaction of `database`.
    static func snapshot(of database: SQLiteDatabase) throws -> Snapshot {
        try database.snapshot { db in
            let values = try Row.fetchAll(db, sql: "SELECT name, value FROM forge_kv")
            let files = try Row.fetchAll(
                db,
                sql: """
                    SELECT f.path, ifnull(f.data, c.data) FROM forge_files f
                    LEFT JOIN forge_file_chunks c ON c.namespace = f.namespace AND c.path = f.path
                    """
            )
            let secrets = try Int.fetchOne(db, sql: "SELECT count(*) FROM forge_secrets WHERE item <> 'header'") ?? 0
            let texts = { (data: Data) in String(decoding: data, as: UTF8.self) }
            return Snapshot(
                valueNames: values.map { texts($0[0]) }.sorted(),
                filePaths: files.map { texts($0[0]) }.sorted(),
                secretCount: secrets,
                rounds: Set(values.map { $0[1] as String } + files.map { texts($0[1]) })
            )
        }
    }

    /// Expects one snapshot of `database` to hold one whole group of values, files and secrets, all of one round.
    static func expectOneWholeTransaction(in database: SQLiteDatabase) throws {
        let found = try snapshot(of: database)
        let group = found.valueNames.first?.prefix(1) ?? "?"
        let indices = 0..<groupSize
        #expect(found.valueNames == indices.map { "\(group).\($0)" }, "the values of one group, whole")
        #expect(found.filePaths == indices.map { "\(group)/\($0)" }, "the files of the same group, whole")
        #expect(found.secretCount == groupSize, "the secrets of one group, whole")
        #expect(found.round != nil, "every value and file of one transaction: rounds \(found.rounds.sorted())")
    }
}
