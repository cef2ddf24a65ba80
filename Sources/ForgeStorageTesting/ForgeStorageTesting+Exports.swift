// The vocabulary of the fault API and the operation log (an operation, and how a fault fails it), re-exported so
// `import ForgeStorageTesting` is enough to use it.
@_exported public import enum ForgeCore.StoreOperation
@_exported public import enum ForgeCore.StoreFailure
