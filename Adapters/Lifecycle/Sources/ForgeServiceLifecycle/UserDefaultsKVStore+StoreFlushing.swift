public import ForgeKVStore

/// `UserDefaultsKVStore` writes behind on Linux: its `flush()` writes what is pending to the property list, and does
/// nothing on Apple platforms, where `cfprefsd` persists changes by itself.
extension UserDefaultsKVStore: StoreFlushing {}
