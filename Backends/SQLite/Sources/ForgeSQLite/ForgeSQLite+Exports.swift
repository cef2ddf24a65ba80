// The key-value, file and secret vocabularies the stores here speak, so that code using the stores needs
// `import ForgeSQLite` alone.
@_exported public import ForgeKVStore
@_exported public import ForgeFileStore
@_exported public import ForgeCrypt
