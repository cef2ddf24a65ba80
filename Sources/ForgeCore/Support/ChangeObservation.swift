/// An observer of a store's changes, until it ends: ending it, or releasing it, stops the calls to the observer.
public final class ChangeObservation: Sendable {
    private let ending: LockedState<(@Sendable () -> Void)?>

    /// Creates an observation that runs `end` once, when it ends or is released.
    public init(_ end: @escaping @Sendable () -> Void) {
        ending = LockedState(end)
    }

    deinit { end() }

    /// Stops calling the observer; later calls do nothing.
    public func end() {
        ending.withLock { end in
            let current = end
            end = nil
            return current
        }?()
    }
}
