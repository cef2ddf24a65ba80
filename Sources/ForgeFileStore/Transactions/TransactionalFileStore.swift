/// A file store whose saves and deletes can be part of a `StorageTransaction`, with those of the other stores of its
/// database.
///
/// ``InMemoryFileStore`` is one, and so are the SQLite and PostgreSQL file stores. ``DiskFileStore`` is not: a folder
/// of files cannot change several files as one.
///
/// A store takes part by declaring `TransactionalStore` beside `AsyncFileStoring`.
///
/// ```swift
/// try StorageTransaction.run { transaction in
///     try transaction.save(report, to: "reports/latest.json", in: files)
///     try transaction.delete("reports/draft.json", in: files)
/// }
/// ```
public typealias TransactionalFileStore = TransactionalStore & AsyncFileStoring
