public import CoreMetrics
public import ForgeKVStore
public import Logging
public import Tracing

/// What a service's stores do, told to the tools of the Swift server ecosystem: a `Logger` (swift-log), metrics
/// (swift-metrics) and tracing spans (swift-distributed-tracing).
///
/// Give its ``record(_:)`` to each store's `reportingEvents(label:to:)`; one value serves every store of every kind,
/// the PostgreSQL and SQLite ones included, and each store's label tells them apart:
///
/// ```swift
/// let observability = StoreObservability(logger: Logger(label: "storage"))
/// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings", to: observability.record)
/// let documents = DiskFileStore(namespace: "documents").reportingEvents(label: "documents", to: observability.record)
/// ```
///
/// - A call to a store's storage that fails is logged at ``StoreLogLevels/failure`` (`error`), with its key or path,
///   its reason and the store's error; one that succeeds at ``StoreLogLevels/success`` (`trace`). A value that did
///   not decode is logged at `warning`, a read a migration served at `debug`.
/// - Each call counts in ``StoreMetricLabels/operations`` (and, failed, in ``StoreMetricLabels/failures`` by its
///   reason), its duration is recorded by the timer ``StoreMetricLabels/duration``, and its bytes are counted; values
///   that did not decode and migrations are counted too.
/// - Each call is a span, from the call's start to its end, a child of the caller's span (the handler runs in the
///   caller's task), with the call's error recorded.
///
/// A secret store's events name no key and keep no error (`StoreEvent`); its records, metrics and spans show the key
/// as `[redacted]` where one was used. The events of a store given `reportingEvents(label:keyNames:to:)`'s
/// `.omitted` or `.hashed` name no key or path in the clear and keep no error either, and nothing here adds one: a
/// record shows `[redacted]` or the hash in its place.
public struct StoreObservability: Sendable {
    /// Where records go.
    public let logger: Logger
    /// The level of each kind of record.
    public let levels: StoreLogLevels
    /// Where metrics go; nil for none.
    let metricsFactory: (any MetricsFactory)?
    /// What makes spans; nil for none.
    let tracer: (any Tracer)?

    /// Reports to `logger`, to `metricsFactory` and to `tracer`.
    ///
    /// - Parameters:
    ///   - logger: Where records go.
    ///   - levels: The level of each kind of record.
    ///   - metricsFactory: Where metrics go: the one `MetricsSystem` was bootstrapped with by default; nil for none.
    ///   - tracer: What makes spans: the one `InstrumentationSystem` was bootstrapped with by default (which makes
    ///     none until it is); nil for none.
    public init(
        logger: Logger,
        levels: StoreLogLevels = StoreLogLevels(),
        metricsFactory: (any MetricsFactory)? = MetricsSystem.factory,
        tracer: (any Tracer)? = InstrumentationSystem.tracer
    ) {
        self.logger = logger
        self.levels = levels
        self.metricsFactory = metricsFactory
        self.tracer = tracer
    }

    /// Logs, counts and traces `event`: the handler to give `reportingEvents(label:to:)`.
    ///
    /// It runs in the caller's task, as the store calls it, so a span it makes is a child of the caller's.
    ///
    /// - Parameter event: What a store did.
    public func record(_ event: StoreEvent) {
        log(event)
        if let metricsFactory { count(event, in: metricsFactory) }
        if let tracer, case .call(let call) = event.kind { trace(event, call, with: tracer) }
    }
}

extension StoreEvent.Store {
    /// The store's kind as records, metrics and spans name it: `kv`, `files` or `secrets`.
    var observedName: String {
        switch self {
        case .keyValue: "kv"
        case .files: "files"
        case .secrets: "secrets"
        }
    }
}

extension StoreEvent {
    /// The key or path the event is for, as records and spans may show it: `[redacted]` for a call on one key of a
    /// secret store or of a store whose events omit names (`keyNames: .omitted`); the event's text (a keyed hash) for
    /// one whose events replace them; nil for a call on the whole store.
    var observedTarget: String? {
        guard store == .secrets || withholdsNames else { return target }
        switch operation {
        case .read, .write, .delete, .exists: return "[redacted]"
        case .list, .deleteAll, .reclaimExpired, .rotateMasterKey: return nil
        }
    }

    /// The name of the metadata key or span attribute of ``observedTarget``: `forge.path` for a file store,
    /// `forge.key` for the others.
    var targetAttribute: String {
        store == .files ? "forge.path" : "forge.key"
    }
}

extension StoreEvent.Failure {
    /// The failure's reason in few words, for metrics to count by: the storage's reason (`outOfSpace`,
    /// `permissionDenied`, … and `other` for a reason the system did not tell apart), or else the error's code
    /// (`alreadyExists`, `tamperedItem`).
    var observedReason: String {
        guard let reason else { return code }
        return switch reason {
        case .notFound: "notFound"
        case .outOfSpace: "outOfSpace"
        case .permissionDenied: "permissionDenied"
        case .readOnlyVolume: "readOnlyVolume"
        case .isFolder: "isFolder"
        case .parentIsFile: "parentIsFile"
        case .symbolicLink: "symbolicLink"
        case .ioError: "ioError"
        case .busy: "busy"
        case .other: "other"
        }
    }
}
