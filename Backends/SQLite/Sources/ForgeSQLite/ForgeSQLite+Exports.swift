// The key-value vocabulary every store here speaks, so that code using the stores needs `import ForgeSQLite` alone.
@_exported public import ForgeKVStore
