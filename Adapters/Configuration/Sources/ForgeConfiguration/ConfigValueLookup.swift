internal import Configuration

/// How the provider turns a configuration key into a store key and a stored value into a lookup result: the one place
/// the key joining, the conversion and the secrets rule are applied, for the provider and its snapshots alike.
struct ConfigValueLookup: Sendable {
    /// The provider's name, which its snapshots carry.
    let providerName: String
    /// The first part of every store key the provider reads, without the dot that joins it to the key; nil for none.
    let keyPrefix: String?
    /// Which values are secret, by the reader's key (without the prefix) and the value read.
    let secretsSpecifier: SecretsSpecifier<String, ConfigContent>
    /// How a string reads as bytes.
    let bytesDecoder: any ConfigBytesFromStringDecoder

    /// The store key of `key`.
    ///
    /// The key's components joined with dots, after the prefix and a dot when there is one; its context is not part
    /// of it.
    func storeKey(for key: AbsoluteConfigKey) -> String {
        let name = key.components.joined(separator: ".")
        guard let keyPrefix else { return name }
        return keyPrefix + "." + name
    }

    /// Whether `storeKey` is one of the provider's keys: under the prefix, or any key when there is none.
    func holds(_ storeKey: String) -> Bool {
        guard let keyPrefix else { return true }
        return storeKey.hasPrefix(keyPrefix + ".")
    }

    /// The result of looking `key` up, stored under `storeKey` as `stored` (nil when nothing is stored).
    ///
    /// - Throws: ``ForgeConfigError/valueNotConvertible(key:type:stored:)`` when the value does not read as `type`.
    func result(
        for key: AbsoluteConfigKey,
        storeKey: String,
        type: ConfigType,
        stored: StoredConfigValue?
    ) throws(ForgeConfigError) -> LookupResult {
        guard let stored, stored != .null else { return LookupResult(encodedKey: storeKey, value: nil) }
        guard let content = stored.content(as: type, bytesDecoder: bytesDecoder) else {
            throw .valueNotConvertible(key: storeKey, type: type, stored: stored.kind)
        }
        let isSecret = secretsSpecifier.isSecret(key: key.components.joined(separator: "."), value: content)
        return LookupResult(encodedKey: storeKey, value: ConfigValue(content, isSecret: isSecret))
    }
}
