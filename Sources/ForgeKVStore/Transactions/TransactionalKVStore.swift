/// A key-value store whose writes and removes can be part of a `StorageTransaction`, with those of the other stores of
/// its database.
///
/// ``InMemoryKVStore`` is one, and so are the SQLite and PostgreSQL key-value stores. ``DiskKVStore`` and
/// ``UserDefaultsKVStore`` are not: a file or a defaults entry per key cannot change several keys as one.
///
/// A store takes part by declaring `TransactionalStore`: it returns its database's `TransactionRunner`, which applies
/// the writes staged for it:
///
/// ```swift
/// try StorageTransaction.run { transaction in
///     try transaction.set(TaskKeys.taskCount, value: 3, in: settings)
///     try transaction.remove(TaskKeys.draft, in: settings)
/// }
/// ```
public typealias TransactionalKVStore = TransactionalStore & AsyncKVStoring
