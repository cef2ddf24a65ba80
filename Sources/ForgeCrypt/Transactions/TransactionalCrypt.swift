/// A secret store whose writes and removes can be part of a `StorageTransaction`, with those of the other stores of
/// its database.
///
/// ``InMemoryCrypt`` declares it, and so does the SQLite secret store. The Keychain and ``EncryptedFileCrypt`` do
/// not: an item or a file per secret cannot change several secrets as one.
///
/// ```swift
/// try StorageTransaction.run { transaction in
///     try transaction.set(newToken, for: AuthKeys.accessToken, in: secrets)
///     try transaction.delete(AuthKeys.refreshToken, in: secrets)
/// }
/// ```
public protocol TransactionalCrypt: TransactionalStore {}
