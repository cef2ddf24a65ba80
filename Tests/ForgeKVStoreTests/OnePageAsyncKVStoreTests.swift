import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// A store behind a network that declares only the asynchronous contract (``OnePageAsyncKVStore``, one page) gets,
/// proven by the public suites, the typed API with key defaults and migrations (the asynchronous settings suite) and
/// lifetimes (the expiry suite), and keeps them seen through the seam, for events and for faults.
struct OnePageAsyncKVStoreTests {
    /// How the store is seen: alone, or through the seam.
    enum Seam: String, CaseIterable, Sendable {
        case alone, events, faults
    }

    /// `store` as `seam` shows it.
    private static func seen(_ store: OnePageAsyncKVStore, _ seam: Seam) -> any AsyncExpiringKVStoring {
        switch seam {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults()
        }
    }

    @Test(arguments: Seam.allCases)
    func passesTheAsynchronousSettingsSuite(seam: Seam) async {
        await AsyncKVStoringConformance.run(makeSubject: {
            let client = OnePageAsyncKVStore.Client()
            return AsyncKVStoringConformance.Subject(
                Self.seen(OnePageAsyncKVStore(client: client), seam),
                reopen: { Self.seen(OnePageAsyncKVStore(client: client), seam) }
            )
        })
    }

    @Test(arguments: ExpiryConformance.checks, Seam.allCases)
    func keepsLifetimes(_ check: ExpiryConformance.Check, seam: Seam) async throws {
        let clock = ManualExpiryClock()
        let client = OnePageAsyncKVStore.Client()
        let store = OnePageAsyncKVStore(client: client, expiry: KVExpiry(clock: clock))
        let other = OnePageAsyncKVStore(client: client, expiry: KVExpiry(clock: clock))
        let subject = ExpiryConformance.Subject(
            store: Self.seen(store, seam),
            clock: clock,
            otherInstance: Self.seen(other, seam)
        )
        try await check.run(on: subject)
    }

    @Test func aServiceOfTheAsynchronousProtocolTakesItLogged() async throws {
        let clock = ManualExpiryClock()
        let events = RecordedEvents()
        let service: any AsyncExpiringKVStoring = OnePageAsyncKVStore(expiry: KVExpiry(clock: clock))
            .reportingEvents(label: "sessions", to: events.handler)
        try await service.set(KVKey<String>("session"), value: "s1", expiresAfter: .seconds(60))
        #expect(try await service.get(KVKey<String>("session")) == "s1")
        clock.advance(by: .seconds(60))
        #expect(try await service.get(KVKey<String>("session")) == nil)
        let logged = events.calls.map { "\($0.event.operation.rawValue) \($0.event.target ?? "")" }
        #expect(logged.starts(with: ["write session", "read session"]), "the service's calls are logged: \(logged)")
        #expect(events.calls.allSatisfy { $0.event.label == "sessions" })
    }
}
