import ForgeKVStore
import ForgeStorageTesting
import Testing

/// A store that declares only the contract (``OnePageKVStore``, one page) gets, proven by the public suites, the typed
/// API in both forms with key defaults and migrations (the settings suites' checks), and keeps it seen through the
/// seam, for events and for faults; a service of the asynchronous expiring protocol takes it logged.
struct OnePageKVStoreTests {
    /// How the store is seen: alone, or through the seam.
    enum Seam: String, CaseIterable, Sendable {
        case alone, events, faults
    }

    /// `store` as `seam` shows it.
    private static func seen(_ store: OnePageKVStore, _ seam: Seam) -> any KVStoring & AsyncKVStoring {
        switch seam {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults()
        }
    }

    @Test(arguments: Seam.allCases)
    func passesTheSettingsSuites(seam: Seam) async {
        await KVStoringConformance.run(makeSubject: {
            let storage = OnePageKVStore.Storage()
            return KVStoringConformance.Subject(
                Self.seen(OnePageKVStore(storage: storage), seam),
                reopen: { Self.seen(OnePageKVStore(storage: storage), seam) },
                neighbour: Self.seen(OnePageKVStore(), seam)
            )
        })
        await AsyncKVStoringConformance.run(makeSubject: {
            let storage = OnePageKVStore.Storage()
            return AsyncKVStoringConformance.Subject(
                Self.seen(OnePageKVStore(storage: storage), seam),
                reopen: { Self.seen(OnePageKVStore(storage: storage), seam) },
                neighbour: Self.seen(OnePageKVStore(), seam)
            )
        })
    }

    @Test func aServiceOfTheAsynchronousProtocolTakesItLogged() async throws {
        let clock = ManualExpiryClock()
        let store = OnePageKVStore(expiry: KVExpiry(clock: clock))
        let service: any AsyncExpiringKVStoring = store.reportingEvents { _ in }
        try await service.set(KVKey<String>("session"), value: "s1", expiresAfter: .seconds(60))
        #expect(try await service.get(KVKey<String>("session")) == "s1")
        clock.advance(by: .seconds(60))
        #expect(try await service.get(KVKey<String>("session")) == nil)
    }
}
