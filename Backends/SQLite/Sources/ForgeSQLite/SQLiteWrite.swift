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
    /// Whether the write runs one statement, which SQLite commits atomically by itself; a write of several
    /// statements, or several writes, run in one transaction.
    let isOneStatement: Bool
    /// The key-value row the write changes, or nil for a file or a secret.
    ///
    /// The database forgets the row's cached value, and tells the observers of its namespace once the write is
    /// committed.
    let changedValue: ChangedValue?
    /// The store's error for a failure of the write: a store's own error passes as it is, any other failure (of SQLite)
    /// becomes the operation's error naming the key or path.
    let failure: Failure
    /// What the write runs on the writer, inside the transaction when there is one.
    let action: Action

    /// What a write runs: a key-value row stored or removed, which a transaction of many runs with one statement
    /// looked up for all of them, or the statements of a file or a secret.
    enum Action {
        /// Stores the row of `key`: the value's JSON, to expire `expiresAt` milliseconds after 1970 (nil: never).
        case storeValue(ReadCache.Key, json: String, expiresAt: Int64?)
        /// Removes the row of `key`.
        case removeValue(ReadCache.Key)
        /// Runs a store's statements.
        case statements((Database) throws -> Void)
    }

    /// How a write's failure becomes its store's error.
    enum Failure {
        /// A key-value write's: a `KVStoreError` passes as it is, any other failure becomes the error `operation` makes
        /// for `name`, with its reason on the database at `path`.
        case keyValue(operation: (String, FailureReason) -> KVStoreError, name: String, path: String)
        /// A file's or a secret's, as its store maps it.
        case mapped((any Error) -> any Error)

        /// The store's error for `error`.
        func callAsFunction(_ error: any Error) -> any Error {
            switch self {
            case .keyValue(let operation, let name, let path):
                error as? KVStoreError ?? operation(name, FailureReason(sqlite: error, path: path))
            case .mapped(let map):
                map(error)
            }
        }
    }

    /// A key-value row that a write changes, and the name the store's observers are told.
    struct ChangedValue {
        /// The row's place, as the read cache keeps it.
        let key: ReadCache.Key
        /// The name as the caller gave it.
        let name: String
    }

    /// Creates a write of a store of `durability`.
    init(
        durability: Durability,
        isOneStatement: Bool,
        changedValue: ChangedValue? = nil,
        failure: Failure,
        action: Action
    ) {
        self.durability = durability
        self.isOneStatement = isOneStatement
        self.changedValue = changedValue
        self.failure = failure
        self.action = action
    }

    /// Creates a write of a store of `durability` that runs the statements `apply`.
    init(
        durability: Durability,
        isOneStatement: Bool,
        failure: @escaping (any Error) -> any Error,
        apply: @escaping (Database) throws -> Void
    ) {
        self.init(
            durability: durability,
            isOneStatement: isOneStatement,
            failure: .mapped(failure),
            action: .statements(apply)
        )
    }

    /// The write that fails with `error` when it is reached: a transaction's `StagedWrite.Change.fail(_:)`.
    static func failing(with error: any Error & Sendable) -> SQLiteWrite {
        SQLiteWrite(durability: .atomic, isOneStatement: true, failure: { $0 }, apply: { _ in throw error })
    }

    /// Runs the write on `db`, throwing a failure as the store's error, already final; a row's statement is taken
    /// from `statements`, which keeps it for the next write of the same kind.
    func run(in db: Database, _ statements: inout RowStatements) throws {
        do {
            switch action {
            case .storeValue(let key, let json, let expiresAt):
                try statements.store(key, json: json, expiresAt: expiresAt, in: db)
            case .removeValue(let key):
                try statements.remove(key, in: db)
            case .statements(let apply):
                try apply(db)
            }
        } catch {
            throw Failed(error: failure(error))
        }
    }

    /// The store's error for a write that failed, so that the database throws it as it is.
    struct Failed: Error {
        let error: any Error
    }
}
