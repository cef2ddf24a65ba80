// The operation vocabulary of the fault API and the operation log, re-exported so
// `import ForgeStorageTesting` is enough to use it.
@_exported public import enum ForgeCore.StoreOperation
