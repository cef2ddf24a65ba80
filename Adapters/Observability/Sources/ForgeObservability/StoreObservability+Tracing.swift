internal import ForgeKVStore
internal import Foundation
internal import Tracing

extension StoreObservability {
    /// Makes the span of `call`, from its start to its end, as a child of the caller's span: named after the store's
    /// kind and the operation (`kv.read`), with the store's label, the key or path and the bytes as attributes, and
    /// the failure recorded as an error.
    func trace(_ event: StoreEvent, _ call: StoreEvent.Call, with tracer: some Tracer) {
        let start = max(0, call.start.timeIntervalSince1970)
        let startNanoseconds = UInt64(start * 1_000_000_000)
        let endNanoseconds = startNanoseconds + UInt64(max(0, call.duration.nanoseconds))
        let span = tracer.startSpan(
            "\(event.store.observedName).\(event.operation.rawValue)",
            context: ServiceContext.current ?? .topLevel,
            ofKind: .client,
            at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: startNanoseconds)
        )
        span.attributes["forge.store"] = event.store.observedName
        span.attributes["forge.label"] = event.label
        span.attributes["forge.operation"] = event.operation.rawValue
        if let target = event.observedTarget { span.attributes[event.targetAttribute] = target }
        if let read = call.bytesRead { span.attributes["forge.bytes_read"] = read }
        if let written = call.bytesWritten { span.attributes["forge.bytes_written"] = written }
        let end = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: endNanoseconds)
        if case .failed(let failure) = call.outcome {
            span.attributes["forge.reason"] = failure.observedReason
            span.recordError(failure.error ?? RedactedStoreFailure(failure: failure), attributes: [:], at: end)
            span.setStatus(SpanStatus(code: .error, message: failure.description))
        }
        span.end(at: end)
    }
}

/// The error a span records for a failure whose error is withheld (a secret store's, which names the key): its code
/// and reason alone.
struct RedactedStoreFailure: Error, CustomStringConvertible {
    /// The failure, without its error.
    let failure: StoreEvent.Failure

    var description: String { failure.description }
}
