public import ForgeKVStore
internal import GRDB

/// What a commit of a ``SQLiteDatabase``'s writer promises, as SQLite reports it: its journal mode and its
/// `synchronous` level.
public struct SQLiteWriterSettings: Sendable, Hashable {
    /// The journal mode, as `PRAGMA journal_mode` names it: `wal`.
    public let journalMode: String
    /// The `synchronous` level, as `PRAGMA synchronous` gives it: 1 (`NORMAL`, a commit is atomic but not flushed) or
    /// 2 (`FULL`, a commit flushes the log).
    public let synchronous: Int
}

extension SQLiteDatabase {
    /// The settings the writer connection commits a write of `durability` with, read back from SQLite: for a tool or
    /// a benchmark that checks what the stores' commits promise beside another library's.
    ///
    /// ```swift
    /// let settings = try database.writerSettings(for: .flushed)
    /// print(settings.journalMode, settings.synchronous)  // wal 2
    /// ```
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)`` when the database cannot be opened or read (a
    ///   read-only database has no writer), ``SQLiteStoreError/closed(path:)`` after ``close()``.
    public func writerSettings(for durability: Durability) throws -> SQLiteWriterSettings {
        do {
            // Alone: grouped with a `.flushed` write, an `.atomic` one commits with `FULL`.
            return try write(durability, changing: nil, alone: true) { db in
                SQLiteWriterSettings(
                    journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
                    synchronous: try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
                )
            }
        } catch let error as SQLiteStoreError {
            throw error
        } catch is ClosedDatabase {
            throw SQLiteStoreError.closed(path: path)
        } catch let refusal as ReadOnlyRefusal {
            throw SQLiteStoreError.openFailed(path: path, underlying: refusal.reason)
        } catch {
            throw SQLiteStoreError.openFailed(path: path, underlying: FailureReason(sqlite: error, path: path))
        }
    }
}
