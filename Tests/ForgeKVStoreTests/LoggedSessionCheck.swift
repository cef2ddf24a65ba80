import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// What a service written against `AsyncExpiringKVStoring` does with a store logged as "sessions": it keeps a session
/// for a minute and finds it gone once the clock has moved a minute on, and each of its calls is logged.
func expectALoggedServiceKeepsASessionForAMinute(
    _ service: any AsyncExpiringKVStoring,
    clock: ManualExpiryClock,
    events: RecordedEvents
) async throws {
    try await service.set(KVKey<String>("session"), value: "s1", expiresAfter: .seconds(60))
    #expect(try await service.get(KVKey<String>("session")) == "s1")
    clock.advance(by: .seconds(60))
    #expect(try await service.get(KVKey<String>("session")) == nil)
    let logged = events.calls.map { "\($0.event.operation.rawValue) \($0.event.target ?? "")" }
    #expect(logged.starts(with: ["write session", "read session"]), "the service's calls are logged: \(logged)")
    #expect(events.calls.allSatisfy { $0.event.label == "sessions" })
}
