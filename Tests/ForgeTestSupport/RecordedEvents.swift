public import ForgeCore

/// The events a store made by `reportingEvents(label:to:)` told its handler, in order, for a test to read.
///
/// ```swift
/// let events = RecordedEvents()
/// let store = InMemoryKVStore().reportingEvents(to: events.handler)
/// try store.set(KVKey<Int>("count"), value: 3)
/// #expect(events.calls.map(\.event.operation) == [.write])
/// ```
public final class RecordedEvents: Sendable {
    private let events = LockedState<[StoreEvent]>([])

    /// Creates an empty record.
    public init() {}

    /// The handler to give the store: it appends each event.
    public var handler: @Sendable (StoreEvent) -> Void {
        { [events] event in events.withLock { $0.append(event) } }
    }

    /// Every event so far, in the order the handler got them.
    public var all: [StoreEvent] { events.withLock { $0 } }

    /// The events of calls to the storage, each with its call.
    public var calls: [(event: StoreEvent, call: StoreEvent.Call)] {
        all.compactMap { event in
            guard case .call(let call) = event.kind else { return nil }
            return (event, call)
        }
    }

    /// The values that did not decode, each with its event.
    public var notDecoded: [(event: StoreEvent, failure: StoreEvent.DecodingFailure)] {
        all.compactMap { event in
            guard case .valueNotDecoded(let failure) = event.kind else { return nil }
            return (event, failure)
        }
    }

    /// The migrations applied, each with its event.
    public var migrations: [(event: StoreEvent, migration: StoreEvent.Migration)] {
        all.compactMap { event in
            guard case .migrationApplied(let migration) = event.kind else { return nil }
            return (event, migration)
        }
    }

    /// Forgets every event so far.
    public func removeAll() { events.withLock { $0.removeAll() } }
}

extension StoreEvent.Call {
    /// The failure the call ended with; nil when it succeeded.
    public var failure: StoreEvent.Failure? {
        guard case .failed(let failure) = outcome else { return nil }
        return failure
    }
}
