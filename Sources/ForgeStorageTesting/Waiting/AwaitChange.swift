public import ForgeKVStore
internal import Observation

/// Waits for a change of what `read` reads, made by `change` or by anyone else, and returns what `read` reads then;
/// throws ``ChangeTimeout`` when no change comes within `limit`.
///
/// The wait for an `@Observable` property, such as a `KVBinding`'s `value`, that never hangs a test run: a change
/// that never comes fails the test with a message naming `awaited` and the limit, and cancelling the waiting task
/// ends the wait at once.
///
/// ```swift
/// let count = try await awaitChange(of: "model.taskCount") {
///     model.taskCount.value
/// } after: {
///     otherScreen.taskCount.value = 3
/// }
/// #expect(count == 3)
/// ```
///
/// `withObservationTracking` tells of a change before it is made. The function runs on its caller's actor, and
/// reads again there once told: a change made on that actor (a binding's, on the main actor) is then in place.
///
/// - Parameters:
///   - awaited: What the test waits for, as the failure should name it.
///   - limit: How long to wait; 10 seconds by default.
///   - read: Reads the observed properties; observed once, with `withObservationTracking`.
///   - change: Makes the change, after the observation starts; nothing by default, for a change made elsewhere.
/// - Returns: What `read` reads once the change was told.
/// - Throws: ``ChangeTimeout`` when no change came within `limit`; what `change` throws; `CancellationError` when
///   the waiting task is cancelled.
@discardableResult
public nonisolated(nonsending) func awaitChange<Value>(
    of awaited: String,
    within limit: Duration = .seconds(10),
    observing read: () -> Value,
    after change: () throws -> Void = {}
) async throws -> Value {
    let waiter = ChangeWaiter<Void>()
    _ = withObservationTracking(read, onChange: { waiter.deliver(()) })
    try change()
    try await waiter.wait(for: awaited, within: limit)
    return read()
}

/// The first element of `sequence` that `matches` accepts; throws ``ChangeTimeout`` when none comes within `limit`.
///
/// The wait for a stream (a store's `stream(_:)`, an `AsyncStream` of your own) that never hangs a test run: the
/// sequence is read in a task of the call's own, which a passing limit or a cancellation of the waiting task
/// cancels, and the call returns only once that task has ended.
///
/// ```swift
/// let counts = store.stream(TaskKeys.taskCount)
/// try store.set(TaskKeys.taskCount, value: 3)
/// let count = try await awaitElement(of: "the stream of taskCount", in: counts) { $0 == 3 }
/// ```
///
/// The sequence is consumed from where it is: an `AsyncStream`, which has one consumer, ends when the wait is
/// cancelled, so await every element a test needs from one stream in one call, or make a stream per call.
///
/// - Parameters:
///   - awaited: What the test waits for, as the failure should name it.
///   - sequence: The sequence to read.
///   - limit: How long to wait; 10 seconds by default.
///   - matches: Whether an element is the one awaited; any element by default.
/// - Returns: The first element `matches` accepts.
/// - Throws: ``ChangeTimeout`` when none came within `limit`, or the sequence ended first; what the sequence
///   throws; `CancellationError` when the waiting task is cancelled.
public nonisolated(nonsending) func awaitElement<Elements: AsyncSequence & Sendable>(
    of awaited: String,
    in sequence: Elements,
    within limit: Duration = .seconds(10),
    where matches: @escaping @Sendable (Elements.Element) -> Bool = { _ in true }
) async throws -> Elements.Element where Elements.Element: Sendable {
    try await withTimeLimit(awaiting: awaited, within: limit) {
        for try await element in sequence where matches(element) { return element }
        try Task.checkCancellation()
        throw ChangeTimeout(awaited: awaited, limit: limit, reason: .sequenceEnded)
    }
}

/// The first value of `key` in `store` that `matches` accepts, the current one included; throws ``ChangeTimeout``
/// when none comes within `limit`.
///
/// It reads the store's `stream(_:)` of the key: see ``awaitElement(of:in:within:where:)``.
///
/// ```swift
/// let store = ReactiveKVStore(InMemoryKVStore())
/// Task { try store.set(TaskKeys.taskCount, value: 3) }   // a change made elsewhere, at any time
/// let count = try await awaitValue(of: TaskKeys.taskCount, in: store) { $0 == 3 }
/// ```
///
/// - Parameters:
///   - key: The key to watch.
///   - store: A store that streams its keys' values.
///   - limit: How long to wait; 10 seconds by default.
///   - matches: Whether a value (nil: nothing stored) is the one awaited.
/// - Returns: The first value `matches` accepts.
/// - Throws: ``ChangeTimeout`` naming the key when none came within `limit`; `CancellationError` when the waiting
///   task is cancelled.
public nonisolated(nonsending) func awaitValue<T: Codable & Sendable & Equatable>(
    of key: KVKey<T>,
    in store: some AsyncKVStreaming,
    within limit: Duration = .seconds(10),
    where matches: @escaping @Sendable (T?) -> Bool
) async throws -> T? {
    try await awaitElement(of: key.key, in: store.stream(key), within: limit, where: matches)
}
