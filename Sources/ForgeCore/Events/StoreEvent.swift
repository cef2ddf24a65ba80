public import Foundation

/// Something a store did, as a store made by `reportingEvents(label:to:)` tells its handler: a call to its storage
/// that finished, a value a read found that did not decode, or a read a migration served.
///
/// Every store of every kind reports the same events, through one hook written above the kind's backend contract, so
/// a service connects each of its stores to its logging, metrics and tracing in one line (ForgeObservability does it
/// for swift-log, swift-metrics and swift-distributed-tracing):
///
/// ```swift
/// let settings = DiskKVStore(namespace: "settings").reportingEvents(label: "settings") { event in
///     if case .call(let call) = event.kind, case .failed(let failure) = call.outcome {
///         print("\(event.label) \(event.operation) \(event.target ?? "") failed: \(failure)")
///     }
/// }
/// ```
///
/// The handler runs synchronously, at the end of each call, in the caller's task: a task-local value (a tracing
/// context, a logger's metadata) is the caller's. A secret store's events never name a key, hold a secret or its
/// length, or carry its error (which names the key): see ``target`` and ``Failure/error``.
public struct StoreEvent: Sendable {
    /// The kind of store the event is from.
    public let store: Store
    /// The label the store was given when it was wrapped (`"settings"`), to tell stores of one kind apart.
    public let label: String
    /// What the call did.
    ///
    /// A read, a write, a remove, a check that a value exists, a listing, a removal of everything, a removal of expired
    /// values or a master-key rotation. A value that did not decode and a migration are reported as a
    /// ``StoreOperation/read``.
    public let operation: StoreOperation
    /// The key or path the call was for; nil for a call on the whole store (a listing of keys, a removal of
    /// everything) and for every event of a secret store, whose key names are never reported.
    ///
    /// A file store's listing names its folder (`"docs"`, `""` for the top folder). A store reporting with
    /// `keyNames: .omitted` names none (see ``withholdsNames``), and one given a replacement (such as a keyed hash)
    /// shows the replacement: see ``KeyNames``.
    public let target: String?
    /// What happened.
    public let kind: Kind
    /// Whether the store's events withhold the key names and paths (`keyNames: .omitted`): ``target`` is then nil
    /// even for a call on one key or path, and a ``DecodingFailure/storedName`` or ``Migration/storedName`` is empty.
    ///
    /// False for a secret store's events, which never name a key; see ``KeyNames``.
    public let withholdsNames: Bool

    /// An event of `store`, labelled `label`.
    package init(
        store: Store,
        label: String,
        operation: StoreOperation,
        target: String?,
        kind: Kind,
        withholdsNames: Bool = false
    ) {
        self.store = store
        self.label = label
        self.operation = operation
        self.target = target
        self.kind = kind
        self.withholdsNames = withholdsNames
    }
}

extension StoreEvent {
    /// The kinds of store.
    public enum Store: String, Sendable, Hashable, CaseIterable {
        /// A key-value store (`KVStoring`, `AsyncKVStoring`).
        case keyValue
        /// A file store (`FileStoring`, `AsyncFileStoring`).
        case files
        /// A secret store (`CryptStoring`, `AsyncCryptStoring`).
        case secrets
    }

    /// What an event reports.
    public enum Kind: Sendable {
        /// A call to the store's storage finished: when it started, how long it took, what it moved and how it ended.
        case call(Call)
        /// A key-value store's read found a value that does not decode as the type asked for, even through the key's
        /// migrations.
        case valueNotDecoded(DecodingFailure)
        /// A key-value store's read returned a value that a migration of the key read: an older type's value under
        /// the key, or a value under an older name.
        case migrationApplied(Migration)
        /// A key-value store removed this many expired values to reclaim their space (reported after the call of
        /// operation `StoreOperation.reclaimExpired`, when it removed any).
        case expiredValuesReclaimed(Int)
    }

    /// One call to a store's storage: one requirement of its backend contract (`KVBackend`, `FileBackend`,
    /// `CryptBackend` or their asynchronous forms).
    ///
    /// A typed call makes one such call (a PostgreSQL store's read of a key and its older names is one), except a
    /// synchronous key-value store's read or remove of a key with migrations, which calls the storage once per name.
    public struct Call: Sendable {
        /// When the call started, by the system's clock.
        public let start: Date
        /// How long the call took, by a monotonic clock.
        public let duration: Duration
        /// How the call ended.
        public let outcome: Outcome
        /// The bytes the call read: a value's JSON, a file's contents; nil when it read none (nothing was stored), or
        /// the store did not say (a `UserDefaults` value, a secret).
        public let bytesRead: Int?
        /// The bytes the call wrote: a value's JSON, a file's contents; nil for a call that writes nothing, for a call
        /// that failed, and for a secret.
        public let bytesWritten: Int?

        /// When the call ended: ``start`` and ``duration``.
        public var end: Date {
            let (seconds, attoseconds) = duration.components
            return start.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }

        /// A call that started at `start` and took `duration`.
        package init(start: Date, duration: Duration, outcome: Outcome, bytesRead: Int?, bytesWritten: Int?) {
            self.start = start
            self.duration = duration
            self.outcome = outcome
            self.bytesRead = bytesRead
            self.bytesWritten = bytesWritten
        }
    }

    /// How a call ended.
    public enum Outcome: Sendable {
        /// It did what it was asked; a read that found nothing succeeded too.
        case succeeded
        /// It threw.
        case failed(Failure)
    }
}
