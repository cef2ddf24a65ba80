internal import ForgeKVStore
internal import Foundation

/// The values a database's stores last read, kept while no connection has written to the file since.
///
/// A read of a key in the cache needs no SQL on the table: the database first asks its watching connection for
/// SQLite's `PRAGMA data_version`, which changes when any other connection (the database's own writer, another
/// `SQLiteDatabase`, another process) commits, and empties the cache when it changed. A write through the database
/// forgets its keys before it returns, and moves ``generation`` on, so that a read that began before the write never
/// keeps what it read.
///
/// A commit of the database's own writer empties the cache too, at the next read: telling it apart from another
/// connection's would take two more statements per write (the watcher's version and the writer's, read after each
/// commit), which made a `set` slower than GRDB's, for a read after it that costs one statement on the watcher anyway.
struct ReadCache {
    /// A row's place: the stored namespace and name.
    struct Key: Hashable {
        let namespace: Data
        let name: Data
    }

    /// The data version the values were read under; nil before the first read.
    private var dataVersion: Int64?
    /// Moves on with every write through the database and every emptying, so that a read started before one is not
    /// cached after it.
    private(set) var generation: UInt64 = 0
    /// The values read, nil for a name that held none.
    private var values: [Key: KVStoredValue?] = [:]

    /// The cached value of `key` under `dataVersion` (emptying the cache first when the version moved), or nil when
    /// it must be read.
    mutating func value(for key: Key, dataVersion: Int64) -> KVStoredValue?? {
        if self.dataVersion != dataVersion {
            values.removeAll(keepingCapacity: true)
            self.dataVersion = dataVersion
            generation &+= 1
        }
        return values[key]
    }

    /// Keeps `value`, read for `key` when the cache was at `generation`, unless a write or an emptying came since.
    mutating func keep(_ value: KVStoredValue?, for key: Key, readAt generation: UInt64) {
        guard generation == self.generation else { return }
        values[key] = .some(value)
    }

    /// Forgets `keys` (every key when nil), for a write that is about to change them or has.
    mutating func forget(_ keys: [Key]?) {
        generation &+= 1
        // An empty cache (the usual one after a write) has nothing to forget: no key is hashed.
        guard !values.isEmpty else { return }
        guard let keys else { return values.removeAll(keepingCapacity: true) }
        for key in keys { values[key] = nil }
    }
}
