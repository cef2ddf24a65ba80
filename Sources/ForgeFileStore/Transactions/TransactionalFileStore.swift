/// A file store whose saves and deletes can be part of a `StorageTransaction`, with those of the other stores of its
/// database.
///
/// ``InMemoryFileStore`` declares it, and so does the SQLite file store. ``DiskFileStore`` does not: a folder of files
/// cannot change several files as one.
///
/// ```swift
/// try StorageTransaction.run { transaction in
///     try transaction.save(report, to: "reports/latest.json", in: files)
///     try transaction.delete("reports/draft.json", in: files)
/// }
/// ```
public protocol TransactionalFileStore: TransactionalStore {}
