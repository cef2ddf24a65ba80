import ForgeObservability
import ForgeStorage
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Testing
import Tracing

/// The sample of ForgeObservability's documentation, which quotes this test verbatim (scripts/check-samples checks
/// the quote): a request's stores, logged, counted and traced.
struct ObservabilitySampleTests {
    @Test func aRequestsStoresAreLoggedCountedAndTraced() async throws {
        let logs = InMemoryLogHandler()
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()

        // A service bootstraps LoggingSystem, MetricsSystem and InstrumentationSystem once, then needs only a logger:
        // StoreObservability(logger: Logger(label: "storage")).
        let observability = StoreObservability(
            logger: Logger(label: "storage") { _ in logs },
            metricsFactory: metrics,
            tracer: tracer
        )
        let settings = InMemoryKVStore().reportingEvents(label: "settings", to: observability.record)
        let tokens = InMemoryCrypt().reportingEvents(label: "tokens", to: observability.record)

        try tracer.withSpan("handle request") { _ in
            try settings.set(KVKey<Int>("visits"), value: 1)
            try tokens.set("s3cr3t", for: CryptKey<String>(key: "api.token"))
            _ = settings.get(KVKey<String>("visits"))  // an Int does not decode as a String
        }

        // Each call is a span, a child of the request's; the secret store's names no key.
        let spans = tracer.finishedSpans.map(\.operationName)
        #expect(spans == ["kv.write", "secrets.write", "kv.read", "handle request"])
        #expect(tracer.finishedSpans[1].attributes["forge.key"]?.toSpanAttribute() == "[redacted]")
        // Each call is counted and timed, by store and label.
        #expect(metrics.counterTotal(label: StoreMetricLabels.operations, dimensions: [("label", "settings")]) == 2)
        #expect(metrics.counterTotal(label: StoreMetricLabels.valuesNotDecoded) == 1)
        // Calls that succeed are logged at trace, under the logger's level; the value that did not decode, at warning.
        #expect(logs.entries.map(\.message) == ["kv read: a stored value did not decode"])
        #expect(logs.entries.first?.metadata["forge.key"] == "visits")
    }
}
