internal import ForgeKVStore
internal import GRDB

extension SQLiteDatabase {
    /// Throws ``ReadOnlyRefusal`` when the database is read-only: the first step of every write of every store, before
    /// anything is opened, sealed or written.
    func refuseWritesIfReadOnly() throws {
        if isReadOnly { throw ReadOnlyRefusal(path: path) }
    }
}

/// A write refused because the database at `path` is read-only; stores throw it as their operation's error with its
/// ``reason``.
struct ReadOnlyRefusal: Error {
    /// The database file's path.
    let path: String

    /// The reason a store's error gives: not `.readOnlyVolume` nor `.permissionDenied`, which the volume and the file
    /// may well not be.
    var reason: FailureReason {
        .other("the SQLite database '\(path)' is open read-only (SQLiteDatabase(readOnly: true)): nothing is written")
    }
}
