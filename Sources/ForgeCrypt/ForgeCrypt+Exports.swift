// The shared vocabulary of the vault, re-exported so `import ForgeCrypt` is enough to use it.
@_exported public import enum ForgeCore.FileProtection
@_exported public import enum ForgeCore.StorageDirectory
@_exported public import enum ForgeCore.FailureReason

// The key type of `MasterKey.symmetric(_:)`, from CryptoKit on Apple platforms and swift-crypto elsewhere.
#if canImport(CryptoKit)
@_exported public import struct CryptoKit.SymmetricKey
@_exported public import struct CryptoKit.SymmetricKeySize
#else
@_exported public import struct Crypto.SymmetricKey
@_exported public import struct Crypto.SymmetricKeySize
#endif

// What a transaction across stores is made of, so that `import ForgeCrypt` is enough to run one.
@_exported public import class ForgeCore.StorageTransaction
@_exported public import struct ForgeCore.StagedWrite
@_exported public import protocol ForgeCore.TransactionRunner
@_exported public import protocol ForgeCore.TransactionalStore
@_exported public import enum ForgeCore.StorageTransactionError
// What a store made by `reportingEvents(label:to:)` tells its handler, so that `import` of any store module is enough
// to handle it.
@_exported public import struct ForgeCore.StoreEvent
@_exported public import enum ForgeCore.StoreOperation
