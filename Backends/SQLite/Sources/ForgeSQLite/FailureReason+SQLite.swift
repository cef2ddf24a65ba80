internal import ForgeKVStore
internal import GRDB

extension FailureReason {
    /// The reason of a failure of SQLite or GRDB on the database at `path`, typed where `FailureReason` has a case for
    /// it, else described with the path.
    init(sqlite error: any Error, path: String) {
        if let problem = error as? SchemaProblem {
            self = problem.reason
            return
        }
        if let refusal = error as? ReadOnlyRefusal {
            self = refusal.reason
            return
        }
        if let closed = error as? ClosedDatabase {
            self = closed.reason
            return
        }
        if let error = error as? SQLiteStoreError {
            self = error.reason
            return
        }
        guard let error = error as? DatabaseError else {
            self = .other("the SQLite database '\(path)' failed: \(error)")
            return
        }
        switch error.resultCode {
        case .SQLITE_FULL: self = .outOfSpace
        case .SQLITE_PERM, .SQLITE_AUTH: self = .permissionDenied
        case .SQLITE_READONLY: self = .readOnlyVolume
        case .SQLITE_IOERR: self = .ioError
        case .SQLITE_NOTADB: self = .other("'\(path)' is not a SQLite database")
        case .SQLITE_CORRUPT: self = .other("the SQLite database '\(path)' is corrupt")
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_CANTOPEN: self = .other("the SQLite database '\(path)' cannot be opened")
        default:
            self = .other("the SQLite database '\(path)' failed: \(error.message ?? "\(error.resultCode)")")
        }
    }
}
