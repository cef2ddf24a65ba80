@_exported public import ForgeCrypt
@_exported public import ForgeFileStore
@_exported public import ForgeKVStore
