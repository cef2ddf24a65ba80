internal import Dispatch
internal import ForgeKVStore
internal import Foundation
internal import GRDB

/// The observers of one database's changes: told each write of the database's own stores by key, and every commit of
/// another connection or process as "anything may have changed".
///
/// While an observer is registered, a ``DatabaseFileWatch`` watches the file and its log, started for the first
/// observer and stopped after the last. The watch tells only that a file was written, so each of its events is
/// checked against the database: on the writer connection, an immediate transaction (which waits for a writer of
/// another connection to finish committing, so its commit is visible) reads `PRAGMA data_version`, which moves when
/// another connection commits and never for the writer's own commits. When it moved, every observer is told nil.
final class DatabaseChanges: Sendable {
    /// One observer: the namespace whose keys it is told, and what it calls.
    private struct Observer: Sendable {
        let namespace: Data
        let onChange: @Sendable (_ name: String?) -> Void
    }

    /// The observers, and whether a check of the data version is waiting to run.
    private struct State: Sendable {
        var observers: [Int: Observer] = [:]
        var lastID = 0
        var isCheckPending = false
    }

    private let state = Locked(State())
    /// The file watch while there are observers, with the data version last read on the writer.
    ///
    /// The version is nil when it could not be read. Held while the watch starts or stops, so that these run one at a
    /// time, in order.
    private let watch = Locked<(watch: DatabaseFileWatch, dataVersion: Int64?)?>(nil)
    /// Runs the checks, one at a time.
    private let checks = DispatchQueue(label: "ForgeSQLite.DatabaseChanges")

    /// Registers `onChange` for the changes of `namespace` in `database`, starting the file watch for the first
    /// observer; the returned observation unregisters it.
    ///
    /// The first observer opens the database, when it is not open yet, and reads its version with the watch's lock
    /// held, so that a watch that starts and one that stops never cross.
    func observe(
        _ database: SQLiteDatabase,
        namespace: Data,
        onChange: @escaping @Sendable (_ name: String?) -> Void
    ) -> ChangeObservation {
        watch.withLock { watch in
            let id = state.withLock { state in
                state.lastID += 1
                state.observers[state.lastID] = Observer(namespace: namespace, onChange: onChange)
                return state.lastID
            }
            if watch == nil {
                // The database is opened first, which makes its folder: a watch of a folder that does not exist yet
                // would never fire. A database that cannot be opened is watched all the same, for when it can.
                _ = try? database.pool()
                // The watch starts before the version is read: a commit after the read is an event.
                let files = DatabaseFileWatch(path: database.path) { [weak self, weak database] in
                    guard let self, let database else { return }
                    self.requestCheck(of: database)
                }
                // Read here, not on the queue of the checks: a check waits for this lock. A check that read an older
                // version before this one makes one more report of nil, and misses nothing.
                watch = (files, try? database.foreignDataVersion())
            }
            return ChangeObservation { [weak self] in self?.removeObserver(id) }
        }
    }

    /// Whether the file is watched now, for tests.
    var isWatching: Bool {
        watch.withLock { $0 != nil }
    }

    /// Tells the observers of `namespace` that the value of `name` (every name when nil) changed through this
    /// database.
    func tell(namespace: Data, name: String?) {
        let observers = state.withLock { state in state.observers.values.filter { $0.namespace == namespace } }
        for observer in observers { observer.onChange(name) }
    }

    /// Tells the observers of each key-value row `writes` changed, in order, that it changed through this database:
    /// after a commit of the writes.
    func tell(_ writes: [SQLiteWrite]) {
        let observers = state.withLock { state in state.observers.isEmpty ? [] : Array(state.observers.values) }
        guard !observers.isEmpty else { return }
        for case let value? in writes.lazy.map({ $0.changedValue }) {
            for observer in observers where observer.namespace == value.key.namespace { observer.onChange(value.name) }
        }
    }

    /// Forgets the observer `id`, and stops the file watch when it was the last.
    private func removeObserver(_ id: Int) {
        let stopped = watch.withLock { watch -> DatabaseFileWatch? in
            let isLast = state.withLock { state in
                state.observers[id] = nil
                return state.observers.isEmpty
            }
            guard isLast else { return nil }
            defer { watch = nil }
            return watch?.watch
        }
        stopped?.stop()
    }

    /// Checks the data version soon, unless a check is already waiting (which will see this event's commit too).
    private func requestCheck(of database: SQLiteDatabase) {
        let isPending = state.withLock { state in
            defer { state.isCheckPending = true }
            return state.isCheckPending
        }
        guard !isPending else { return }
        checks.async { [self] in
            state.withLock { $0.isCheckPending = false }
            check(database)
        }
    }

    /// Reads the data version on the writer, and tells every observer nil when it moved since the last read (or
    /// could not be read: a change may then be missed otherwise).
    private func check(_ database: SQLiteDatabase) {
        let version = try? database.foreignDataVersion()
        let moved = watch.withLock { watch -> Bool in
            guard let current = watch else { return false }
            guard let version, version == current.dataVersion else {
                watch = (current.watch, version)
                return true
            }
            return false
        }
        guard moved else { return }
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer.onChange(nil) }
    }
}

extension SQLiteDatabase {
    /// The writer connection's `PRAGMA data_version`, read in an immediate transaction that changes nothing: it
    /// moves with every commit of another connection or process, never with the writer's own.
    ///
    /// The transaction waits (up to ``busyTimeout``) for the write lock, so a commit of another process that is
    /// under way is complete, and visible, when the version is read.
    func foreignDataVersion() throws -> Int64 {
        try pool()
            .writeWithoutTransaction { db in
                var version: Int64 = 0
                try db.inTransaction(.immediate) {
                    version = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                    return .rollback
                }
                return version
            }
    }
}
