internal import ForgeKVStore
internal import GRDB

/// One write of a store, ready to run on the database's writer connection: alone, for a call of the store, or with
/// others in one transaction, for a `StorageTransaction`.
///
/// Each store makes its writes in one function per kind of change (a value stored, a file removed, a secret sealed and
/// stored), which its own calls and ``SQLiteDatabase/commit(_:)`` both use: a write alone and the same write in a
/// transaction run the same SQL and fail with the same error. Whatever must happen before the writer is taken (a
/// secret sealed, a store's header read) is done when the write is made; its ``action`` runs on the writer only.
struct SQLiteWrite {
    /// The durability of the store that makes the write.
    let durability: Durability
    /// What the write runs on the writer, inside the transaction when there is one.
    let action: Action

    /// What a write runs: a key-value row stored or removed, which a transaction of many runs with one statement
    /// looked up for all of them, or the statements of a file or a secret.
    enum Action {
        /// Stores `row`: the value's JSON, to expire `expiresAt` milliseconds after 1970 (nil: never).
        case storeValue(ValueRow, json: String, expiresAt: Int64?)
        /// Removes `row`.
        case removeValue(ValueRow)
        /// Runs a store's statements, one (`isOneStatement`: SQLite commits it atomically by itself) or more; a failure
        /// becomes the store's error through `failure`.
        case statements(isOneStatement: Bool, failure: (any Error) -> any Error, apply: (Database) throws -> Void)
    }

    /// A key-value row a write changes: the database forgets its cached value, and tells the observers of its
    /// namespace once the write is committed.
    struct ValueRow {
        /// The row's place, as the read cache keeps it.
        let key: ReadCache.Key
        /// The name as the caller gave it, which observers are told and errors name.
        let name: String
    }

    /// Whether the write runs one statement, which SQLite commits atomically by itself; a write of several
    /// statements, or several writes, run in one transaction.
    var isOneStatement: Bool {
        guard case .statements(let isOneStatement, _, _) = action else { return true }
        return isOneStatement
    }

    /// The key-value row the write changes, or nil for a file or a secret.
    var changedValue: ValueRow? {
        switch action {
        case .storeValue(let row, _, _), .removeValue(let row): row
        case .statements: nil
        }
    }

    /// Creates a write of a store of `durability` that runs the statements `apply`; `failure` makes the store's error
    /// of what they throw.
    init(
        durability: Durability,
        isOneStatement: Bool,
        failure: @escaping (any Error) -> any Error,
        apply: @escaping (Database) throws -> Void
    ) {
        self.init(
            durability: durability,
            action: .statements(isOneStatement: isOneStatement, failure: failure, apply: apply)
        )
    }

    /// Creates a write of a store of `durability` that runs `action`.
    init(durability: Durability, action: Action) {
        self.durability = durability
        self.action = action
    }

    /// The store's error for `error`, a failure of the write on the database at `path`: a store's own error passes as
    /// it is, any other failure (of SQLite) becomes the operation's error naming the key or path.
    func failure(_ error: any Error, path: String) -> any Error {
        switch action {
        case .storeValue(let row, _, _):
            error as? KVStoreError
                ?? KVStoreError.writeFailed(key: row.name, underlying: FailureReason(sqlite: error, path: path))
        case .removeValue(let row):
            error as? KVStoreError
                ?? KVStoreError.removeFailed(key: row.name, underlying: FailureReason(sqlite: error, path: path))
        case .statements(_, let failure, _):
            failure(error)
        }
    }

    /// The write that fails with `error` when it is reached: a transaction's `StagedWrite.Change.fail(_:)`.
    static func failing(with error: any Error & Sendable) -> SQLiteWrite {
        SQLiteWrite(durability: .atomic, isOneStatement: true, failure: { $0 }, apply: { _ in throw error })
    }

    /// Runs the write on `db`, the database at `path`, throwing a failure as the store's error, already final; a row's
    /// statement is taken from `statements`, which keeps it for the next write of the same kind.
    func run(in db: Database, at path: String, _ statements: inout RowStatements) throws {
        do {
            switch action {
            case .storeValue(let row, let json, let expiresAt):
                try statements.store(row.key, json: json, expiresAt: expiresAt, in: db)
            case .removeValue(let row):
                try statements.remove(row.key, in: db)
            case .statements(_, _, let apply):
                try apply(db)
            }
        } catch {
            throw Failed(error: failure(error, path: path))
        }
    }

    /// The store's error for a write that failed, so that the database throws it as it is.
    struct Failed: Error {
        let error: any Error
    }
}
