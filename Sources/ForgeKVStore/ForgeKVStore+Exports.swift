// The shared vocabulary of the disk stores, re-exported so `import ForgeKVStore` is enough to use them.
@_exported public import enum ForgeCore.FileProtection
@_exported public import enum ForgeCore.StorageDirectory
@_exported public import enum ForgeCore.FailureReason
@_exported public import enum ForgeCore.Durability
@_exported public import class ForgeCore.ChangeObservation
