internal import CoreMetrics
internal import ForgeKVStore
internal import Metrics

extension StoreObservability {
    /// Counts `event` in the metrics of ``StoreMetricLabels``, made by `factory`.
    func count(_ event: StoreEvent, in factory: any MetricsFactory) {
        func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
            Counter(label: label, dimensions: dimensions, factory: factory)
        }
        let store = [("store", event.store.observedName), ("label", event.label)]
        switch event.kind {
        case .call(let call):
            let dimensions = store + [("operation", event.operation.rawValue)]
            var outcome = "success"
            if case .failed(let failure) = call.outcome {
                outcome = "failure"
                counter(StoreMetricLabels.failures, dimensions + [("reason", failure.observedReason)]).increment()
            }
            counter(StoreMetricLabels.operations, dimensions + [("outcome", outcome)]).increment()
            Timer(label: StoreMetricLabels.duration, dimensions: dimensions, factory: factory)
                .recordNanoseconds(call.duration.nanoseconds)
            if let read = call.bytesRead { counter(StoreMetricLabels.bytesRead, dimensions).increment(by: read) }
            if let written = call.bytesWritten {
                counter(StoreMetricLabels.bytesWritten, dimensions).increment(by: written)
            }
        case .valueNotDecoded:
            counter(StoreMetricLabels.valuesNotDecoded, store).increment()
        case .migrationApplied:
            counter(StoreMetricLabels.migrationsApplied, store).increment()
        case .expiredValuesReclaimed(let count):
            counter(StoreMetricLabels.expiredValuesReclaimed, store).increment(by: count)
        }
    }
}
