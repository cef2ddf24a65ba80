internal import NIOConcurrencyHelpers
internal import PostgresNIO
internal import ServiceLifecycle

/// The background work of the stores on one `PostgresClient`: the listening connections of the key-value stores'
/// streams, which a ``PostgresStoreService`` runs and ends.
///
/// One per client, found through ``of(_:)`` as the transaction runner is: a registry keyed by the client's identity
/// holds each weakly, and each holds its client. Every ``NotificationHub`` of a store on the client asks it where to
/// run a listening connection (a task of its own, or a child task of the running service) and whether a stream may
/// still start.
///
/// Its lock is taken before a hub's, never after, so a stream starts either before an ending, which then ends it, or
/// after, and does not start.
final class BackgroundWork: Sendable {
    /// A listening connection to run: a hub's session of listening, which ends when the hub stops it.
    typealias Job = @Sendable () async -> Void

    /// Where the service stands.
    enum Phase: Sendable {
        /// No service runs: each hub runs its listening connection in a task of its own.
        case unhosted
        /// A service runs: listening connections start as its child tasks, sent through `jobs`.
        case hosted(jobs: AsyncStream<Job>.Continuation)
        /// The service is ending its work, as `ending` says: no stream starts, the running ones end.
        case ending(NotificationHub.Ending)
        /// The service ended its work: no stream starts until a service runs again.
        case ended
    }

    /// The phase, the hubs that have streams, and who waits for them to end.
    private struct State: Sendable {
        var phase = Phase.unhosted
        /// The hubs with at least one stream; a hub leaves when its last stream ended.
        var activeHubs: [ObjectIdentifier: NotificationHub] = [:]
        /// Listening tasks of their own that an ending stopped, which the service waits for.
        var stoppedListeners: [Task<Void, Never>] = []
        /// The service's wait for the last hub to leave.
        var drained: CheckedContinuation<Void, Never>?
        /// Waits for a service to run the work (``waitUntilHosted()``).
        var hostedWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The client whose stores' work this is.
    let client: PostgresClient
    /// The phase, the hubs that have streams, and who waits for them to end.
    private let state = NIOLockedValueBox(State())

    /// The work of each client that has one.
    private static let registry = ClientRegistry<BackgroundWork>()

    private init(client: PostgresClient) {
        self.client = client
    }

    /// The work of `client`: the one that a store or a service on it holds already, or a new one.
    static func of(_ client: PostgresClient) -> BackgroundWork {
        registry.value(of: client) { BackgroundWork(client: client) }
    }

    // MARK: - For the hubs

    /// Runs `body` with the current phase, unless the work is ending or ended; when `body` admits a stream (returns
    /// a value), `hub` counts as active until ``leave(_:whenIdle:)``.
    ///
    /// `body` runs under this work's lock: it takes the hub's own lock, and starts the hub's listening as the phase
    /// says.
    func admit<Admitted>(_ hub: NotificationHub, _ body: (Phase) -> Admitted?) -> Admitted? {
        state.withLockedValue { state in
            switch state.phase {
            case .ending, .ended:
                return nil
            case .unhosted, .hosted:
                guard let admitted = body(state.phase) else { return nil }
                state.activeHubs[ObjectIdentifier(hub)] = hub
                return admitted
            }
        }
    }

    /// Runs `isIdle` under this work's lock, and lets `hub` go when it says the hub has no stream left.
    func leave(_ hub: NotificationHub, whenIdle isIdle: () -> Bool) {
        let drained = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard isIdle() else { return nil }
            state.activeHubs[ObjectIdentifier(hub)] = nil
            guard state.activeHubs.isEmpty else { return nil }
            defer { state.drained = nil }
            return state.drained
        }
        drained?.resume()
    }

    // MARK: - For the service

    /// Runs the listening connections of the client's stores until a graceful shutdown or the task's cancellation,
    /// then ends every stream of them and returns once they ended and their connections went back to the pool.
    ///
    /// - Throws: ``PostgresStoreError/serviceAlreadyRunning`` when another service runs this client's work.
    func run() async throws(PostgresStoreError) {
        let jobs = try open()
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                await withGracefulShutdownHandler {
                    // The listening sessions that start while the service runs; the stream of them finishes when the
                    // service begins to end.
                    for await job in jobs { group.addTask { await job() } }
                } onGracefulShutdown: {
                    self.end(.graceful)
                }
                // What ended the loop began the ending, unless a cancellation ended the iteration first.
                end(Task.isCancelled ? .immediately : .graceful)
                await waitUntilEnded()
                // The group waits for the listening sessions it runs, which the ending stopped.
            }
        } onCancel: {
            self.end(.immediately)
        }
    }

    /// Marks the work as hosted by a service and returns the stream of listening sessions it is to run.
    private func open() throws(PostgresStoreError) -> AsyncStream<Job> {
        let (jobs, continuation) = AsyncStream<Job>.makeStream()
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>]? in
            switch state.phase {
            case .hosted, .ending:
                return nil
            case .unhosted, .ended:
                state.phase = .hosted(jobs: continuation)
                defer { state.hostedWaiters = [] }
                return state.hostedWaiters
            }
        }
        guard let waiters else { throw .serviceAlreadyRunning }
        for waiter in waiters { waiter.resume() }
        return jobs
    }

    /// Returns once a service runs the work: at once when one does, else when the next one starts.
    ///
    /// What the tests wait on before they make a stream that the service is to run.
    func waitUntilHosted() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isHosted = state.withLockedValue { state in
                if case .hosted = state.phase { return true }
                state.hostedWaiters.append(waiter)
                return false
            }
            if isHosted { waiter.resume() }
        }
    }

    /// Begins to end the work, or has a graceful ending under way end at once: no stream starts from now on, every
    /// hub stops listening, and each stream ends as `ending` says.
    private func end(_ ending: NotificationHub.Ending) {
        let steps = state.withLockedValue { state -> [NotificationHub.EndingSteps] in
            switch state.phase {
            case .hosted(let jobs):
                jobs.finish()
            case .ending(.graceful) where ending == .immediately:
                break
            case .unhosted, .ending, .ended:
                return []
            }
            state.phase = .ending(ending)
            let steps = state.activeHubs.values.map { $0.beginEnding(ending) }
            state.stoppedListeners += steps.compactMap(\.stoppedTask)
            return steps
        }
        // Outside the locks: a cancelled reader may run code of its own at once.
        for step in steps { step.perform() }
    }

    /// Waits until every hub's streams ended and every stopped listening task returned, then marks the work ended.
    private func waitUntilEnded() async {
        await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
            let isDrained = state.withLockedValue { state in
                guard !state.activeHubs.isEmpty else { return true }
                state.drained = drained
                return false
            }
            if isDrained { drained.resume() }
        }
        let listeners = state.withLockedValue { state in
            defer { state.stoppedListeners = [] }
            return state.stoppedListeners
        }
        for listener in listeners { await listener.value }
        state.withLockedValue { $0.phase = .ended }
    }
}
