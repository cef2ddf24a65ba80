// The key-value and secret vocabularies every store here speaks, so that code using the stores needs
// `import ForgeSQLite` alone.
@_exported public import ForgeKVStore
@_exported public import ForgeCrypt
