/// A secret store whose writes and removes can be part of a `StorageTransaction`, with those of the other stores of
/// its database.
///
/// ``InMemoryCrypt`` is one, and so are the SQLite and PostgreSQL secret stores. The Keychain and
/// ``EncryptedFileCrypt`` are not: an item or a file per secret cannot change several secrets as one.
///
/// A store takes part by declaring `TransactionalStore` beside `AsyncCryptStoring`.
///
/// ```swift
/// try StorageTransaction.run { transaction in
///     try transaction.set(newToken, for: AuthKeys.accessToken, in: secrets)
///     try transaction.delete(AuthKeys.refreshToken, in: secrets)
/// }
/// ```
public typealias TransactionalCrypt = TransactionalStore & AsyncCryptStoring
