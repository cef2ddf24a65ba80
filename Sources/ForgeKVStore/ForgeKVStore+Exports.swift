// The shared vocabulary of the disk stores, re-exported so `import ForgeKVStore` is enough to use them.
@_exported public import enum ForgeCore.FileProtection
@_exported public import enum ForgeCore.StorageDirectory
@_exported public import enum ForgeCore.FailureReason
@_exported public import enum ForgeCore.Durability
@_exported public import class ForgeCore.ChangeObservation
// What a transaction across stores is made of, so that `import ForgeKVStore` is enough to run one.
@_exported public import class ForgeCore.StorageTransaction
@_exported public import struct ForgeCore.StagedWrite
@_exported public import protocol ForgeCore.TransactionRunner
@_exported public import protocol ForgeCore.TransactionalStore
@_exported public import enum ForgeCore.StorageTransactionError
// What a store made by `reportingEvents(label:to:)` tells its handler, so that `import` of any store module is enough
// to handle it.
@_exported public import struct ForgeCore.StoreEvent
@_exported public import enum ForgeCore.StoreOperation
