internal import ForgeKVStore
internal import Foundation

/// The values a database's stores last read, kept while no other connection has written to the file since.
///
/// A read of a key in the cache needs no SQL on the table: the database first asks its watching connection for
/// SQLite's `PRAGMA data_version`, which changes when any other connection (the database's own writer, another
/// `SQLiteDatabase`, another process) commits, and empties the cache when it changed.
///
/// A commit of the database's own writer knows what it changed: after it, the writer reads the watcher's new version
/// and its own `data_version` (which moves only with other connections' commits). When the writer's version is the one
/// it read after its previous commit, and the cache is still at the watcher's version of then, no other connection
/// committed in between, and the cache forgets only the keys the commit changed
/// (``committed(changing:watcherVersion:writerVersion:)``). Every write moves ``generation`` on, so that a read that
/// began before it never keeps what it read.
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
    /// The watcher's and the writer's data versions read after the last own commit; nil when none was read since the
    /// last write that failed.
    private var ownCommit: (watcher: Int64, writer: Int64)?

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

    /// Forgets `keys` (every key when nil), for a write that failed or whose commit was not taken in.
    mutating func forget(_ keys: [Key]?) {
        generation &+= 1
        ownCommit = nil
        guard let keys else { return values.removeAll(keepingCapacity: true) }
        for key in keys { values[key] = nil }
    }

    /// Takes in a commit of the database's own writer that changed `keys` (any key when nil), after which the watcher
    /// read `watcherVersion` and then the writer `writerVersion`.
    ///
    /// The cache forgets only `keys` and moves to `watcherVersion` when no other connection can have committed since
    /// the last own commit: the writer's version is the one it read then, and no read found the watcher elsewhere.
    /// Otherwise it empties, at `watcherVersion`.
    mutating func committed(changing keys: [Key]?, watcherVersion: Int64, writerVersion: Int64) {
        generation &+= 1
        let onlyOwnCommits = ownCommit.map { $0.writer == writerVersion && $0.watcher == dataVersion } ?? false
        if let keys, onlyOwnCommits {
            for key in keys { values[key] = nil }
        } else {
            values.removeAll(keepingCapacity: true)
        }
        dataVersion = watcherVersion
        ownCommit = (watcherVersion, writerVersion)
    }
}
