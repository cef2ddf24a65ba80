import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reportingEvents(label:keyNames:to:)` on key-value stores: with `.omitted` or a replacement, no event names a key
/// in the clear, whether in its target, a decoding failure's or a migration's stored name, or a failure's error and
/// description; with `.clear` (the default) they do.
struct EventReportingKVStoreKeyNamesTests {
    /// A session keyed by its token, the key a log must not show.
    private static let token = "session.7f3c9e1d-token"
    private static let olderName = "legacy.7f3c9e1d-token"

    /// Every call, a failed write, a value that did not decode and a migration, through `store`, each naming the
    /// token or its older name.
    private static func exercise(_ store: some KVStoring, faults: StoreFaults) throws {
        let key = KVKey<Int>(token)
        try store.set(key, value: 1)
        _ = store.get(key)
        _ = store.contains(key)
        faults.failNext(.write, at: token, with: .outOfSpace)
        #expect(throws: KVStoreError.self) { try store.set(key, value: 2) }
        try store.set(KVKey<String>(token), value: "not a number")
        _ = store.get(key)
        try store.set(KVKey<Int>(olderName), value: 3)
        try store.remove(key)
        #expect(store.get(KVKey<Int>(token, migrations: .renamed(from: olderName))) == 3)
    }

    /// The events of `exercise` on a memory store whose events name keys as `keyNames` says.
    private static func events(naming keyNames: StoreEvent.KeyNames) throws -> [StoreEvent] {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let store = InMemoryKVStore(faults: faults).reportingEvents(keyNames: keyNames, to: events.handler)
        try exercise(store, faults: faults)
        #expect(events.calls.contains { $0.call.failure != nil })
        #expect(!events.notDecoded.isEmpty && !events.migrations.isEmpty)
        return events.all
    }

    /// Everything `event` holds, as text: its target, kind, failure, error and every description.
    private static func text(of event: StoreEvent) -> String {
        var text = ""
        dump(event, to: &text)
        switch event.kind {
        case .call(let call): text += call.failure.map { "\($0) \($0.error.map { "\($0)" } ?? "")" } ?? ""
        case .valueNotDecoded(let failure): text += failure.description
        case .migrationApplied(let migration): text += migration.description
        case .expiredValuesReclaimed: break
        }
        return text
    }

    @Test func clearNamesShowTheKeyAsBefore() throws {
        let events = try Self.events(naming: .clear)
        #expect(events.contains { Self.text(of: $0).contains(Self.token) })
        #expect(events.contains { Self.text(of: $0).contains(Self.olderName) })
        #expect(events.allSatisfy { !$0.withholdsNames })
    }

    @Test(arguments: ["omitted", "replaced"])
    func noEventNamesTheKeyInTheClear(_ form: String) throws {
        let keyNames: StoreEvent.KeyNames = form == "omitted" ? .omitted : .replaced { "#\($0.count)" }
        let events = try Self.events(naming: keyNames)
        for event in events {
            let text = Self.text(of: event)
            #expect(!text.contains("7f3c9e1d"), "\(event.operation) \(event.kind) names the key")
        }
        let failure = try #require(
            events.compactMap { event -> StoreEvent.Failure? in
                guard case .call(let call) = event.kind else { return nil }
                return call.failure
            }
            .first
        )
        #expect(failure.error == nil)
        #expect(failure.description == "writeFailed: \(FailureReason.outOfSpace)")
        #expect(failure.code == "writeFailed" && failure.reason == .outOfSpace)
    }

    @Test func omittedNamesLeaveNoTargetAndSayTheyWithheldIt() throws {
        let events = try Self.events(naming: .omitted)
        #expect(events.allSatisfy { $0.target == nil && $0.withholdsNames })
        let notDecoded = events.compactMap { event -> StoreEvent.DecodingFailure? in
            guard case .valueNotDecoded(let failure) = event.kind else { return nil }
            return failure
        }
        #expect(notDecoded.first?.storedName == "")
        #expect(notDecoded.first?.description.hasPrefix("A stored value did not decode as Int") == true)
    }

    @Test func aReplacementNamesEachKeyByItsText() throws {
        let events = try Self.events(naming: .replaced { "#\($0.count)" })
        let targets = Set(events.compactMap(\.target))
        // The key, and the older name the synchronous store's migrating read asked its storage for.
        #expect(targets == ["#\(Self.token.count)", "#\(Self.olderName.count)"])
        let migration =
            events.compactMap { event -> StoreEvent.Migration? in
                guard case .migrationApplied(let migration) = event.kind else { return nil }
                return migration
            }
            .first
        #expect(migration?.storedName == "#\(Self.olderName.count)")
        #expect(events.allSatisfy { !$0.withholdsNames })
    }

    @Test func anAsyncStoreHidesTheKeyToo() async throws {
        let events = RecordedEvents()
        let table = TableKVStore.Table()
        let store = AsyncTableKVStore(table: table, namespace: "sessions")
            .reportingEvents(keyNames: .omitted, to: events.handler)
        try await store.set(KVKey<Int>(Self.token), value: 1)
        _ = try await store.value(for: KVKey<Int>(Self.token))
        #expect(events.calls.count == 2)
        #expect(events.all.allSatisfy { $0.target == nil && !Self.text(of: $0).contains(Self.token) })
    }
}
