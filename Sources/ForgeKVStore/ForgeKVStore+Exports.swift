// The vocabulary every store module shares (ForgeCore's public types: where a store keeps its files and how, what a
// failure was, the parts of a transaction across stores, the events of a store seen through the seam), re-exported
// so that `import ForgeKVStore` is enough to use it.
@_exported public import ForgeCore
