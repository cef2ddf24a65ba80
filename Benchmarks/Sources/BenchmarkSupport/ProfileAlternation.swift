import Synchronization

/// Hands out ``Profile/sample`` and ``Profile/otherSample`` in turn, across samples.
///
/// `UserDefaults.synchronize()` writes nothing when no value has changed, so a peer that measures it must change the
/// value each time; the two values encode to the same size.
public final class ProfileAlternation: Sendable {
    private let count = Mutex(0)

    /// Starts with ``Profile/otherSample``.
    public init() {}

    /// The value after the last one handed out.
    public func next() -> Profile {
        count.withLock { count in
            count += 1
            return count.isMultiple(of: 2) ? .sample : .otherSample
        }
    }
}
