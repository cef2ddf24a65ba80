import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// A store that declares only the contract (``OnePageKVStore``, one page) gets, proven by the public suites, the typed
/// API in both forms with key defaults and migrations (the settings suites' checks), lifetimes (the expiry suite, with
/// the streams of a `ReactiveKVStore` over it), and keeps them seen through the seam, for events and for faults; a
/// service of the asynchronous expiring protocol takes it logged.
struct OnePageKVStoreTests {
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
        await KVStoringConformance.runInBothForms {
            let storage = OnePageKVStore.Storage()
            return StoreSubject(
                Self.seen(OnePageKVStore(storage: storage), seam),
                reopen: { Self.seen(OnePageKVStore(storage: storage), seam) }
            )
        }
    }

    @Test(arguments: ExpiryConformance.checks, Seam.allCases)
    func keepsLifetimes(_ check: ExpiryConformance.Check, seam: Seam) async throws {
        let clock = ManualExpiryClock()
        let storage = OnePageKVStore.Storage()
        let store = OnePageKVStore(storage: storage, expiry: KVExpiry(clock: clock))
        let other = OnePageKVStore(storage: storage, expiry: KVExpiry(clock: clock))
        switch seam {
        case .alone: try await check.run(on: Self.subject(store, clock: clock, other: other))
        case .events: try await check.run(on: Self.subject(store.reportingEvents { _ in }, clock: clock, other: other))
        case .faults: try await check.run(on: Self.subject(store.injectingFaults(), clock: clock, other: other))
        }
    }

    @Test func aServiceOfTheAsynchronousProtocolTakesItLogged() async throws {
        let clock = ManualExpiryClock()
        let store = OnePageKVStore(expiry: KVExpiry(clock: clock))
        let events = RecordedEvents()
        let service: any AsyncExpiringKVStoring = store.reportingEvents(label: "sessions", to: events.handler)
        try await expectALoggedServiceKeepsASessionForAMinute(service, clock: clock, events: events)
    }

    /// The subject of a `ReactiveKVStore` over `store`, written and streamed through it: a store that tells no one of
    /// its changes (this one) is observed through the reactive store its writes go through.
    private static func subject(
        _ store: some ExpiringKVStoring & KVBackend,
        clock: ManualExpiryClock,
        other: OnePageKVStore
    ) -> ExpiryConformance.Subject {
        let reactive = ReactiveKVStore(store)
        return .init(synchronous: reactive, clock: clock, otherInstance: other, stream: { reactive.stream($0) })
    }
}
