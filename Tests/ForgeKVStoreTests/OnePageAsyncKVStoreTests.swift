import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// A store behind a network that declares only the asynchronous contract (``OnePageAsyncKVStore``, one page) gets,
/// proven by the public suites, the typed API with key defaults and migrations (the asynchronous settings suite) and
/// lifetimes (the expiry suite), and keeps them seen through the seam, for events and for faults.
struct OnePageAsyncKVStoreTests {
    @Test(arguments: Seam.allCases)
    func passesTheAsynchronousSettingsSuite(seam: Seam) async {
        await AsyncKVStoringConformance.run(makeSubject: {
            let client = OnePageAsyncKVStore.Client()
            return AsyncKVStoringConformance.Subject(
                seam.showing(OnePageAsyncKVStore(client: client)),
                reopen: { seam.showing(OnePageAsyncKVStore(client: client)) }
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
            store: seam.showing(store),
            clock: clock,
            otherInstance: seam.showing(other)
        )
        try await check.run(on: subject)
    }

    @Test func aServiceOfTheAsynchronousProtocolTakesItLogged() async throws {
        let clock = ManualExpiryClock()
        let events = RecordedEvents()
        let service: any AsyncExpiringKVStoring = OnePageAsyncKVStore(expiry: KVExpiry(clock: clock))
            .reportingEvents(label: "sessions", to: events.handler)
        try await expectALoggedServiceKeepsASessionForAMinute(service, clock: clock, events: events)
    }
}
