import ForgeKVStore
import ForgeSQLite
import Foundation
import GRDB

/// A row of `forge_kv` that another program wrote, with any value and lifetime, read through `SQLiteKVStore` as an app
/// reads: typed values, the listing, `contains`, a lifetime.
///
/// The input's first byte picks how the value is stored (text, blob, integer, real), its second whether the row has a
/// lifetime, the next eight the lifetime in milliseconds; the rest is the value.
enum SQLiteRowFuzzing {
    static let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-fuzz-sqlite-\(ProcessInfo.processInfo.processIdentifier).sqlite")
    static let store = SQLiteKVStore(fileURL: file, namespace: "settings")
    /// The other program's connection.
    static let writer: DatabaseQueue = {
        do {
            // The store makes its tables first.
            try store.set(KVKey<String>("theme"), value: "seed")
            return try DatabaseQueue(path: file.path)
        } catch {
            fatalError("sqlite-row: could not open the database: \(error)")
        }
    }()

    static func run(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 10 else { return }
        let rest = Data(bytes[10...])
        let value: DatabaseValue =
            switch bytes[0] % 4 {
            case 0: String(decoding: rest, as: UTF8.self).databaseValue
            case 1: rest.databaseValue
            case 2: Int64(truncatingIfNeeded: rest.reduce(0) { $0 &* 257 &+ Int($1) }).databaseValue
            default: Double(rest.count).databaseValue
            }
        let expiresAt = bytes[1] % 2 == 0 ? nil : bytes[2..<10].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        do {
            try writer.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO forge_kv (namespace, name, value, expires_at) VALUES (?, ?, ?, ?)",
                    arguments: [Data("settings".utf8), Data("theme".utf8), value, expiresAt]
                )
            }
        } catch {
            fatalError("sqlite-row: could not plant the row: \(error)")
        }
        do {
            _ = try store.value(for: KVKey<Profile>("theme"))
        } catch is KVStoreError {} catch { untyped(error, .sqliteRow) }
        do {
            _ = try store.value(for: KVKey<String>("theme"))
            _ = try store.keys()
            _ = try store.expirationDate(of: KVKey<String>("theme"))
        } catch is KVStoreError {} catch { untyped(error, .sqliteRow) }
    }
}
