import ForgeCore

/// Reads an `AsyncStream` one element at a time, each within a bounded wait: a guard against a hang when an element
/// never comes, not a wait for it.
///
/// One task consumes the stream for the reader's whole life and buffers what it gets, so a wait that times out
/// leaves the stream running: a later ``next(within:)`` still gets the next element.
public final class StreamReader<Element: Sendable>: Sendable {
    /// What the consumer got and no `next` took yet, and the `next` waiting for it.
    private struct State {
        var buffer: [Element] = []
        var isFinished = false
        var waiter: (id: Int, continuation: CheckedContinuation<Element?, Never>)?
        var lastWaiter = 0
        /// The waits up to this number timed out: one that starts waiting only now gets nothing at once.
        var expired = 0
    }

    private let state = LockedState(State())
    private let consumer = LockedState<Task<Void, Never>?>(nil)

    /// A reader of `stream`, from its first element on.
    public init(_ stream: AsyncStream<Element>) {
        let task = Task { [state] in
            for await element in stream { Self.receive(element, in: state) }
            Self.receive(nil, in: state)
        }
        consumer.withLock { $0 = task }
    }

    deinit {
        consumer.withLock { $0 }?.cancel()
    }

    /// The next element; nil when the stream ended or none came within `seconds`.
    public func next(within seconds: Double = 10) async -> Element? {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let ready = self.state.withLock { state -> Element?? in
                        if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                        if state.isFinished || id <= state.expired { return .some(nil) }
                        state.waiter = (id, continuation)
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                // Time is up: the waiter, if still waiting, gets nothing; the element it waited for stays buffered.
                let waiter = self.state.withLock { state -> CheckedContinuation<Element?, Never>? in
                    if !Task.isCancelled { state.expired = max(state.expired, id) }
                    guard let waiter = state.waiter, waiter.id == id else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                waiter?.resume(returning: nil)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The next `count` elements, each within `seconds`; fewer when the stream ended or one did not come.
    public func next(_ count: Int, within seconds: Double = 10) async -> [Element] {
        var elements: [Element] = []
        while elements.count < count, let element = await next(within: seconds) { elements.append(element) }
        return elements
    }

    /// Hands `element` (nil: the stream ended) to the waiting `next`, or buffers it.
    private static func receive(_ element: Element?, in state: LockedState<State>) {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            guard let waiter = state.waiter else {
                if let element { state.buffer.append(element) } else { state.isFinished = true }
                return nil
            }
            state.waiter = nil
            if element == nil { state.isFinished = true }
            return waiter.continuation
        }
        waiter?.resume(returning: element)
    }
}
