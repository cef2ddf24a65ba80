import BenchmarkSupport

/// One stream's iterator, kept from a stream benchmark's setup to its teardown: the harness runs each sample in a
/// task of its own, and each awaits the next value here.
actor StreamObserver {
    /// Thrown when the stream ended before the awaited value came.
    struct StreamEnded: Error {}
    /// Thrown when a stream benchmark's sample runs without an observer (its setup failed).
    struct NotObserving: Error {}

    /// The stream, kept so that it lives until ``end()``: releasing it and its iterator ends it.
    private var stream: AsyncStream<Profile?>?
    /// Its iterator.
    private var iterator: AsyncStream<Profile?>.Iterator?

    /// An observer of `stream`.
    init(_ stream: AsyncStream<Profile?>) {
        self.stream = stream
        self.iterator = stream.makeAsyncIterator()
    }

    /// Awaits the stream's next value.
    func next() async throws {
        guard var current = iterator else { throw StreamEnded() }
        iterator = nil
        defer { iterator = current }
        guard await current.next(isolation: self) != nil else { throw StreamEnded() }
    }

    /// Awaits `profile`, skipping values before it (a read that found an older value).
    func await(_ profile: Profile) async throws {
        guard var current = iterator else { throw StreamEnded() }
        iterator = nil
        defer { iterator = current }
        while let value = await current.next(isolation: self) {
            if value == profile { return }
        }
        throw StreamEnded()
    }

    /// Releases the stream and its iterator, which ends the stream.
    func end() {
        iterator = nil
        stream = nil
    }
}
