// The vocabulary every store module shares (ForgeCore's public types: where a store keeps its files and how, what a
// failure was, the parts of a transaction across stores, the events of a store seen through the seam), re-exported
// so that `import ForgeCrypt` is enough to use it.
@_exported public import ForgeCore
// The key type of `MasterKey.symmetric(_:)`, from CryptoKit on Apple platforms and swift-crypto elsewhere.
#if canImport(CryptoKit)
@_exported public import struct CryptoKit.SymmetricKey
@_exported public import struct CryptoKit.SymmetricKeySize
#else
@_exported public import struct Crypto.SymmetricKey
@_exported public import struct Crypto.SymmetricKeySize
#endif
