import ForgeKVStore
import ForgeSQLite
import Foundation
import Testing

/// Databases opened on one new file at once, as servers that start together on a new database open it.
///
/// Each one's first writes succeed. SQLite answered the WAL mode's setting of one of them with `SQLITE_BUSY` at once,
/// and its first write failed, in about one round in eight.
struct SQLiteDatabaseConcurrentOpeningTests {
    @Test(arguments: [false, true])
    func twoDatabasesOpenedOnANewFileAtOnceBothWrite(claimingOneKey: Bool) async throws {
        var failures: [String] = []
        for round in 0..<40 {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("forge-sqlite-opening-\(UUID().uuidString)", isDirectory: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("shared.sqlite")
            let stores = (0..<2).map { _ in SQLiteKVStore(fileURL: file, namespace: "servers") }
            failures += await withTaskGroup(of: String?.self) { group in
                for task in 0..<8 {
                    let store = stores[task % 2]
                    group.addTask {
                        do {
                            if claimingOneKey {
                                _ = try store.setIfAbsent(KVKey<Int>("claim"), value: task, lifetime: .forever)
                            } else {
                                try store.set(KVKey<Int>("task.\(task)"), value: task)
                            }
                            return nil
                        } catch {
                            return "round \(round), task \(task): \(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
            }
            for store in stores { try store.database.close() }
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
    }
}
