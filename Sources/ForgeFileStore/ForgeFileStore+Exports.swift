// The vocabulary every store module shares (ForgeCore's public types: where a store keeps its files and how, what a
// failure was, the parts of a transaction across stores, the events of a store seen through the seam), re-exported
// so that `import ForgeFileStore` is enough to use it.
@_exported public import ForgeCore
// The bytes every file store saves and loads, so that `import ForgeFileStore` is enough to call one, as the
// reference's samples do.
@_exported public import struct Foundation.Data
