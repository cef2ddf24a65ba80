import ForgeObservability
import ForgeStorage
import ForgeStorageTesting
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit

/// A ``StoreObservability`` whose records, metrics and spans a test reads: swift-log's in-memory handler,
/// swift-metrics' test factory and swift-distributed-tracing's in-memory tracer.
struct ObservedStores {
    let logs = InMemoryLogHandler()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()

    /// Reports to all three, logging every level.
    var observability: StoreObservability {
        var logger = Logger(label: "storage") { [logs] _ in logs }
        logger.logLevel = .trace
        return StoreObservability(logger: logger, metricsFactory: metrics, tracer: tracer)
    }

    /// Every record, metric and span as text, to search for what must not be there.
    var everything: String {
        String(reflecting: logs.entries) + String(reflecting: metrics.counters.map(\.dimensions))
            + String(reflecting: tracer.finishedSpans.map { ($0.operationName, $0.attributes, $0.errors, $0.status) })
    }
}
