internal import Configuration

/// The values a ``ForgeConfigProvider`` held at one moment: what `snapshot()` returns and `watchSnapshot` emits.
struct ForgeConfigSnapshot: Sendable {
    /// The key joining, conversion and secrets rule of the provider.
    let lookup: ConfigValueLookup
    /// The values by store key.
    let values: [String: StoredConfigValue]
}

extension ForgeConfigSnapshot: ConfigSnapshot {
    var providerName: String { lookup.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let storeKey = lookup.storeKey(for: key)
        return try lookup.result(for: key, storeKey: storeKey, type: type, stored: values[storeKey])
    }
}

extension ForgeConfigSnapshot: CustomStringConvertible {
    var description: String { "\(providerName)[\(values.count) values]" }
}
