internal import ForgeCore

/// The events of a key-value read above the storage, where the typed API decodes.
///
/// A migration that served the read, or a value that did not decode. The storage's own calls are reported below, by
/// the backend that makes them.
struct KVReadEvents: Sendable {
    /// Where the events go; nil for a store that reports nothing (one made for faults), whose reads still take this
    /// path.
    let reporter: StoreEventReporter?

    /// The value of `key` in `source`, through the library's one read policy; a migration that served it is reported,
    /// and so is a value that did not decode, which is then thrown.
    ///
    /// - Parameters:
    ///   - key: The key read.
    ///   - source: Where its values are read.
    ///   - readAsNil: Whether the caller answers nil for a value that did not decode (`get`).
    /// - Returns: The value, or nil when nothing is stored.
    /// - Throws: ``KVStoreError``, as `value(for:)` throws it.
    func value<T: Codable & Sendable>(
        of key: KVKey<T>,
        in source: some KVValueSource,
        readAsNil: Bool
    ) throws -> T? {
        do {
            guard let resolved = try source.resolvedValue(for: key) else { return nil }
            if let migration = resolved.migration {
                let applied = StoreEvent.Migration(
                    storedName: migration.oldKey ?? key.key,
                    olderType: migration.olderType,
                    currentType: "\(T.self)"
                )
                reporter?.report(.migrationApplied(applied), reading: key.key)
            }
            return resolved.value
        } catch KVStoreError.decodingFailed(let name, let underlying) {
            reportNotDecoded(key, name: name, underlying: underlying, readAsNil: readAsNil)
            throw KVStoreError.decodingFailed(key: name, underlying: underlying)
        }
    }

    /// Reports that the value under `name`, read for `key`, did not decode, for `underlying`.
    func reportNotDecoded<T>(_ key: KVKey<T>, name: String, underlying: String, readAsNil: Bool) {
        let failure = StoreEvent.DecodingFailure(
            expectedType: "\(T.self)",
            storedName: name,
            underlying: underlying,
            readAsNil: readAsNil
        )
        reporter?.report(.valueNotDecoded(failure), reading: key.key)
    }
}

extension StoreEventReporter {
    /// A reporter for a key-value store labelled `label`, naming keys as `keyNames` says, telling `handler`.
    static func keyValue(
        label: String,
        keyNames: StoreEvent.KeyNames = .clear,
        handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> StoreEventReporter {
        StoreEventReporter(
            store: .keyValue,
            label: label,
            keyNames: keyNames,
            handler: handler,
            failure: KVStoreError.eventFailure
        )
    }
}
