internal import PostgresNIO
internal import NIOConcurrencyHelpers

/// A store's one listening connection: it listens on the table's channel while any stream of the store runs, and
/// tells each stream when a write touched one of its keys.
///
/// Each time listening starts (the first stream, and again after a dropped connection), every stream is told to
/// re-read, since a change may have come before the server listened for it; a stream that subscribes while the hub
/// listens is told at once. So a stream's first read, and every later one, comes after the server listens: every
/// change after that read is notified.
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
        /// The number of the current listening task: a task that was cancelled when the last stream ended may still be
        /// finishing when the next stream starts another, and must not change what the new one marks.
        var generation = 0
        /// Whether the current listening task's server confirmed listening on the channel, and the connection has not
        /// failed since.
        var isListening = false
    }

    /// The client the listening connection is leased from.
    private let client: PostgresClient
    /// The channel the table's trigger notifies.
    private let channel: String
    /// The streams and the listening task.
    private let state = NIOLockedValueBox(State())

    /// How long the hub waits before listening again after its connection failed or dropped.
    static let retryDelay = Duration.seconds(1)

    /// Creates a hub for `channel` that listens on a connection of `client` while a stream runs.
    init(client: PostgresClient, channel: String) {
        self.client = client
        self.channel = channel
    }

    /// Signals `changed` for each notification of one of `payloads`, whenever listening starts, and at once when the
    /// hub listens already; the returned number ends it through ``unsubscribe(_:)``.
    ///
    /// `changed` is signalled first only once the server listens on the channel, so a read made on that signal is
    /// followed by a notification of every later change. `prepare` runs before each time listening starts, so the
    /// table and its trigger exist.
    func subscribe(
        payloads: Set<String>,
        changed: AsyncStream<Void>.Continuation,
        prepare: @escaping @Sendable () async throws -> Void
    ) -> Int {
        let (id, isListening) = state.withLockedValue { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(payloads: payloads, changed: changed)
            if state.listener == nil {
                state.generation += 1
                state.isListening = false
                let generation = state.generation
                state.listener = Task { await self.listen(generation: generation, prepare: prepare) }
            }
            return (id, state.isListening)
        }
        // Listening already: no start of listening will signal this subscriber, so it reads now. Otherwise the start
        // signals it, as it was counted under the same lock the start takes.
        if isListening { changed.yield() }
        return id
    }

    /// Stops signalling the subscriber `id`; the last one out stops listening.
    func unsubscribe(_ id: Int) {
        let listener = state.withLockedValue { state -> Task<Void, Never>? in
            state.subscribers[id] = nil
            guard state.subscribers.isEmpty else { return nil }
            defer { state.listener = nil }
            return state.listener
        }
        listener?.cancel()
    }

    /// Whether the hub listens on the channel now: the server confirmed it and the connection has not failed since.
    var isListening: Bool {
        state.withLockedValue { $0.isListening }
    }

    /// Listens until cancelled, listening again after each failure; `generation` is the task's number, which marks
    /// the hub's listening only while it is the current one.
    private func listen(generation: Int, prepare: @Sendable () async throws -> Void) async {
        while !Task.isCancelled {
            do {
                try await prepare()
                try await client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        // Listening now: a change before this point is caught up by every stream's re-read. Marked
                        // under the lock the subscribers are read with, so a stream that subscribes after this signal
                        // sees that the hub listens and reads at once.
                        signal { state in
                            guard state.generation == generation else { return [] }
                            state.isListening = true
                            return Array(state.subscribers.values)
                        }
                        for try await notification in notifications {
                            signal { state in
                                state.subscribers.values.filter { $0.payloads.contains(notification.payload) }
                            }
                        }
                    }
                }
            } catch {
                // Retried below: the connection dropped, or the server cannot be reached yet.
            }
            state.withLockedValue { state in
                if state.generation == generation { state.isListening = false }
            }
            try? await Task.sleep(for: Self.retryDelay)
        }
    }

    /// Signals the subscribers `concerned` picks from the state, outside its lock.
    private func signal(_ concerned: (inout State) -> [Subscriber]) {
        let subscribers = state.withLockedValue { concerned(&$0) }
        for subscriber in subscribers { subscriber.changed.yield() }
    }
}
