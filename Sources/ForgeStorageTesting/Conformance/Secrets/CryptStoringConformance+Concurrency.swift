internal import ForgeCrypt

/// The checks that call a store from four threads at once, as every suite makes them (``ConformanceRaces``).
extension CryptStoringConformance {
    /// The checks of concurrent calls, part of ``checks``.
    static var concurrencyChecks: [Check] {
        ConformanceRaces.checks { $0.racedStore }
    }
}

extension CryptStoringConformance.Subject {
    /// The store as the race checks see it: a `CryptKey<String>` per name.
    var racedStore: RacedStore {
        let store = store
        return RacedStore(
            write: { name, text in try store.set(text, for: CryptKey<String>(key: name)) },
            read: { name in try store.get(CryptKey<String>(key: name)) },
            names: { Set(try store.keys()) },
            raceGate: raceGate
        )
    }
}
