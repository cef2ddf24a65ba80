internal import ForgeKVStore

/// The checks that call a store from four threads at once, as every suite makes them (``ConformanceRaces``).
extension KVStoringConformance {
    /// The checks of calls from many threads, part of ``checks``.
    static var concurrencyChecks: [Check] {
        ConformanceRaces.checks { $0.racedStore }
    }
}

extension KVStoringConformance.Subject {
    /// The store as the race checks see it: a `KVKey<String>` per name, read with `value(for:)` so that a value that
    /// does not decode fails the check.
    var racedStore: RacedStore {
        let store = store
        return RacedStore(
            write: { name, text in try store.set(KVKey<String>(name), value: text) },
            read: { name in try store.value(for: KVKey<String>(name)) },
            names: { Set(try store.keys()) },
            raceGate: raceGate
        )
    }
}
