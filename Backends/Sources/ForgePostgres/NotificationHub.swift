internal import PostgresNIO
internal import Synchronization

/// A store's one listening connection: it listens on the table's channel while any stream of the store runs, and
/// tells each stream when a write touched one of its keys.
///
/// Each time listening starts (the first stream, and again after a dropped connection), every stream is told to
/// re-read, since a change may have come before the server listened for it.
final class NotificationHub: Sendable {
    /// A stream's interest: the payloads of its key's stored names, and where to signal a change of them.
    private struct Subscriber: Sendable {
        let payloads: Set<String>
        let changed: AsyncStream<Void>.Continuation
    }

    /// The streams and the listening task.
    private struct State: Sendable {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var listener: Task<Void, Never>?
    }

    /// The client the listening connection is leased from.
    private let client: PostgresClient
    /// The channel the table's trigger notifies.
    private let channel: String
    /// The streams and the listening task.
    private let state = Mutex(State())

    /// How long the hub waits before listening again after its connection failed or dropped.
    static let retryDelay = Duration.seconds(1)

    /// Creates a hub for `channel` that listens on a connection of `client` while a stream runs.
    init(client: PostgresClient, channel: String) {
        self.client = client
        self.channel = channel
    }

    /// Signals `changed` for each notification of one of `payloads`, and whenever listening starts; the returned
    /// number ends it through ``unsubscribe(_:)``.
    ///
    /// `prepare` runs before each time listening starts, so the table and its trigger exist.
    func subscribe(
        payloads: Set<String>,
        changed: AsyncStream<Void>.Continuation,
        prepare: @escaping @Sendable () async throws -> Void
    ) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(payloads: payloads, changed: changed)
            if state.listener == nil {
                state.listener = Task { await self.listen(prepare: prepare) }
            }
            return id
        }
    }

    /// Stops signalling the subscriber `id`; the last one out stops listening.
    func unsubscribe(_ id: Int) {
        let listener = state.withLock { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.listener = nil }
            return state.listener
        }
        listener?.cancel()
    }

    /// Listens until cancelled, listening again after each failure.
    private func listen(prepare: @Sendable () async throws -> Void) async {
        while !Task.isCancelled {
            do {
                try await prepare()
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Listening now: a change before this point is caught up by every stream's re-read.
                        signal { _ in true }
                        for try await notification in notifications {
                            signal { $0.payloads.contains(notification.payload) }
                        }
                    }
                }
            } catch {
                // Retried below: the connection dropped, or the server cannot be reached yet.
            }
            try? await Task.sleep(for: Self.retryDelay)
        }
    }

    /// Signals the subscribers that `isConcerned` accepts.
    private func signal(_ isConcerned: (Subscriber) -> Bool) {
        let concerned = state.withLock { state in state.subscribers.values.filter(isConcerned) }
        for subscriber in concerned { subscriber.changed.yield() }
    }
}
