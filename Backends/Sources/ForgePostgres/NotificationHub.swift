internal import PostgresNIO
internal import NIOConcurrencyHelpers

/// A store's one listening connection: it listens on the table's channel while any stream of the store runs, and
/// tells each stream when a write touched one of its keys.
///
/// Each time listening starts (the first stream, and again after a dropped connection), every stream is told to
/// re-read, since a change may have come before the server listened for it; a stream that subscribes while the hub
/// listens is told at once. So a stream's first read, and every later one, comes after the server listens: every
/// change after that read is notified.
///
/// The listening connection runs in a task of its own, or, while a ``PostgresStoreService`` runs the client's
/// ``BackgroundWork``, as a child task of that service. When the service ends the work, ``beginEnding(_:)`` stops
/// listening and has every stream end: gracefully after one last read, or at once.
final class NotificationHub: Sendable {
    /// How the streams end when their service ends.
    enum Ending: Sendable, Equatable {
        /// Each stream reads its key once more, yields the value if it changed, and ends: a write committed before
        /// the ending is in the stream's last value.
        case graceful
        /// Each stream ends at once; a read under way is cancelled.
        case immediately
    }

    /// A stream's interest: the payloads of its key's stored names, and where to signal a change of them.
    fileprivate struct Subscriber: Sendable {
        let payloads: Set<String>
        let changed: AsyncStream<Void>.Continuation
        /// The stream's task that reads the key on each signal, once it is known (``track(_:of:)``).
        var reader: Task<Void, Never>?
        /// How the stream is ending, once its service ends it.
        var ending: Ending?
    }

    /// A session of listening: it ends when `stop` finishes; `task` runs it, unless a service does.
    fileprivate struct Listener: Sendable {
        let stop: AsyncStream<Void>.Continuation
        let task: Task<Void, Never>?
    }

    /// The streams and the listening session.
    private struct State: Sendable {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var listener: Listener?
        /// The number of the current listening session: one that was stopped when the last stream ended may still be
        /// finishing when the next stream starts another, and must not change what the new one marks.
        var generation = 0
        /// Whether the current listening session's server confirmed listening on the channel, and the connection has
        /// not failed since.
        var isListening = false
    }

    /// What ending the streams takes once the locks are released: the signals, and the listening session to stop.
    struct EndingSteps: Sendable {
        fileprivate let subscribers: [Subscriber]
        fileprivate let listener: Listener?
        fileprivate let ending: Ending

        /// The listening task of its own that the ending stops, for the service to wait for.
        var stoppedTask: Task<Void, Never>? { listener?.task }

        /// Stops listening and signals each stream to end.
        func perform() {
            listener?.stop.finish()
            for subscriber in subscribers {
                switch ending {
                case .graceful:
                    // One last read, then the signals end, and so does the stream.
                    subscriber.changed.yield()
                    subscriber.changed.finish()
                case .immediately:
                    subscriber.changed.finish()
                    subscriber.reader?.cancel()
                }
            }
        }
    }

    /// The client the listening connection is leased from.
    private let client: PostgresClient
    /// The channel the table's trigger notifies.
    private let channel: String
    /// The client's background work: where the listening runs, and whether a stream may start.
    let work: BackgroundWork
    /// The streams and the listening session.
    private let state = NIOLockedValueBox(State())

    /// How long the hub waits before listening again after its connection failed or dropped.
    static let retryDelay = Duration.seconds(1)

    /// Creates a hub for `channel` that listens on a connection of `client` while a stream runs.
    init(client: PostgresClient, channel: String) {
        self.client = client
        self.channel = channel
        self.work = BackgroundWork.of(client)
    }

    /// Signals `changed` for each notification of one of `payloads`, whenever listening starts, and at once when the
    /// hub listens already; the returned number ends it through ``unsubscribe(_:)``.
    ///
    /// Nil, and nothing signalled, when the client's ``PostgresStoreService`` ended the stores' work (or is ending it).
    ///
    /// `changed` is signalled first only once the server listens on the channel, so a read made on that signal is
    /// followed by a notification of every later change. `prepare` runs before each time listening starts, so the
    /// table and its trigger exist.
    func subscribe(
        payloads: Set<String>,
        changed: AsyncStream<Void>.Continuation,
        prepare: @escaping @Sendable () async throws -> Void
    ) -> Int? {
        let admitted = work.admit(self) { phase in
            state.withLockedValue { state in
                let id = state.nextID
                state.nextID += 1
                state.subscribers[id] = Subscriber(payloads: payloads, changed: changed)
                if state.listener == nil {
                    state.generation += 1
                    state.isListening = false
                    state.listener = startListening(generation: state.generation, phase: phase, prepare: prepare)
                }
                return (id: id, isListening: state.isListening)
            }
        }
        guard let admitted else { return nil }
        // Listening already: no start of listening will signal this subscriber, so it reads now. Otherwise the start
        // signals it, as it was counted under the same lock the start takes.
        if admitted.isListening { changed.yield() }
        return admitted.id
    }

    /// Records `reader`, the task of the stream `id`, so that an ending cancels it; cancels it at once when the
    /// stream is ending so already.
    func track(_ reader: Task<Void, Never>, of id: Int) {
        let cancel = state.withLockedValue { state -> Bool in
            // No subscriber: the reader has ended already.
            guard state.subscribers[id] != nil else { return false }
            state.subscribers[id]?.reader = reader
            return state.subscribers[id]?.ending == .immediately
        }
        if cancel { reader.cancel() }
    }

    /// Stops signalling the subscriber `id`; the last one out stops listening.
    func unsubscribe(_ id: Int) {
        var stopped: Listener?
        work.leave(self) {
            state.withLockedValue { state in
                state.subscribers[id] = nil
                guard state.subscribers.isEmpty else { return false }
                stopped = state.listener
                state.listener = nil
                return true
            }
        }
        stopped?.stop.finish()
    }

    /// Whether the stream `id` is ending: its reads must not wait for the server to come back.
    func isEnding(_ id: Int) -> Bool {
        state.withLockedValue { $0.subscribers[id]?.ending != nil }
    }

    /// Whether the hub listens on the channel now: the server confirmed it and the connection has not failed since.
    var isListening: Bool {
        state.withLockedValue { $0.isListening }
    }

    /// Whether the current listening session runs in a task of its own (false: a service runs it); nil when the hub
    /// does not listen.
    var listensInItsOwnTask: Bool? {
        state.withLockedValue { state in state.listener.map { $0.task != nil } }
    }

    /// Marks every stream as ending as `ending` says, and takes the listening session, under the hub's lock; the
    /// returned steps stop it and signal the streams, outside the locks.
    ///
    /// Called by ``BackgroundWork`` under its own lock, which admits no stream meanwhile.
    func beginEnding(_ ending: Ending) -> EndingSteps {
        state.withLockedValue { state in
            for id in state.subscribers.keys { state.subscribers[id]?.ending = ending }
            let listener = state.listener
            state.listener = nil
            // A session stopped now must not mark the hub as listening.
            state.generation += 1
            state.isListening = false
            return EndingSteps(subscribers: Array(state.subscribers.values), listener: listener, ending: ending)
        }
    }

    /// Starts a listening session numbered `generation`: as a child task of the service when one hosts the work, in a
    /// task of its own otherwise.
    private func startListening(
        generation: Int,
        phase: BackgroundWork.Phase,
        prepare: @escaping @Sendable () async throws -> Void
    ) -> Listener {
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let session: BackgroundWork.Job = {
            await self.listen(generation: generation, prepare: prepare, until: stopped)
        }
        if case .hosted(let jobs) = phase {
            jobs.yield(session)
            return Listener(stop: stop, task: nil)
        }
        return Listener(stop: stop, task: Task { await session() })
    }

    /// Listens until `stopped` finishes or the task is cancelled.
    private func listen(
        generation: Int,
        prepare: @escaping @Sendable () async throws -> Void,
        until stopped: AsyncStream<Void>
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listenUntilCancelled(generation: generation, prepare: prepare) }
            group.addTask { for await _ in stopped {} }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Listens until cancelled, listening again after each failure; `generation` is the session's number, which marks
    /// the hub's listening only while it is the current one.
    private func listenUntilCancelled(generation: Int, prepare: @Sendable () async throws -> Void) async {
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
