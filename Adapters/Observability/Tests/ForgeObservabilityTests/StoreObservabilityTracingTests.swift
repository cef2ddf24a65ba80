import ForgeObservability
import ForgeStorage
import ForgeStorageTesting
import InMemoryTracing
import Testing
import Tracing

/// The spans ``StoreObservability`` makes: one per call, from the call's start to its end, a child of the caller's
/// span, with its failure recorded; a store behind a network (an `AsyncKVBackend`, as the PostgreSQL stores are)
/// reports each call to its server as one span.
struct StoreObservabilityTracingTests {
    private static let count = KVKey<Int>("count")

    @Test func eachCallOfAStoreBehindANetworkIsAChildSpanOfTheCallersSpan() async throws {
        let observed = ObservedStores()
        let events = EventLog()
        let observability = observed.observability
        let store = ServerKVStore()
            .reportingEvents(label: "sessions") { event in
                events.append(event)
                observability.record(event)
            }

        try await observed.tracer.withSpan("handle request") { _ in
            try await store.set(Self.count, value: 1)
            _ = try await store.get(KVKey<Int>("count", migrations: .renamed(from: "visits")))
        }

        let spans = observed.tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["kv.write", "kv.read", "handle request"])
        let request = try #require(spans.last)
        #expect(spans.dropLast().allSatisfy { $0.parentSpanID == request.spanID && $0.traceID == request.traceID })
        #expect(spans[0].kind == .client)
        #expect(spans[0].attributes["forge.label"]?.toSpanAttribute() == "sessions")
        #expect(spans[0].attributes["forge.key"]?.toSpanAttribute() == "count")
        #expect(spans[0].attributes["forge.bytes_written"]?.toSpanAttribute() == 1)
        // The span is the call: it starts when the call started and lasts as long.
        let call = try #require(events.calls.first)
        let start = spans[0].startInstant.nanosecondsSinceEpoch
        #expect(start == UInt64(call.start.timeIntervalSince1970 * 1_000_000_000))
        let lasted = spans[0].endInstant.nanosecondsSinceEpoch - start
        #expect(Duration.nanoseconds(lasted) <= call.duration && call.duration < .nanoseconds(lasted + 1))
    }

    @Test func aFailedCallsSpanRecordsItsErrorAndStatus() throws {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let store = InMemoryKVStore(faults: faults).reportingEvents(to: observed.observability.record)
        faults.failNext(.read, with: .permissionDenied)

        #expect(throws: KVStoreError.self) { try store.value(for: Self.count) }

        let span = try #require(observed.tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.errors.first?.error as? KVStoreError == .readFailed(key: "count", underlying: .permissionDenied))
        #expect(span.attributes["forge.reason"]?.toSpanAttribute() == "permissionDenied")
    }

    @Test func aSecretStoresSpanRedactsTheKeyAndItsError() throws {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let store = InMemoryCrypt(faults: faults).reportingEvents(to: observed.observability.record)
        faults.failNext(.write, with: .outOfSpace)

        #expect(throws: CryptStoreError.self) { try store.set("correct-horse", for: CryptKey<String>(key: "alice")) }

        let span = try #require(observed.tracer.finishedSpans.first)
        #expect(span.operationName == "secrets.write")
        #expect(span.attributes["forge.key"]?.toSpanAttribute() == "[redacted]")
        #expect(span.errors.count == 1 && !(span.errors.first?.error is CryptStoreError))
        #expect(!observed.everything.contains("alice") && !observed.everything.contains("horse"))
    }

    @Test func eventsThatAreNotCallsMakeNoSpan() throws {
        let observed = ObservedStores()
        let store = InMemoryKVStore().reportingEvents(to: observed.observability.record)
        try store.set(KVKey<String>("count"), value: "many")

        #expect(store.get(Self.count) == nil)

        #expect(observed.tracer.finishedSpans.map(\.operationName) == ["kv.write", "kv.read"])
    }
}
