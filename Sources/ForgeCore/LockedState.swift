#if canImport(os)
package import os
#elseif canImport(Glibc)
@preconcurrency package import Glibc
#elseif canImport(Musl)
@preconcurrency package import Musl
#elseif canImport(Android)
@preconcurrency package import Android
#endif

/// A value guarded by one lock, shared by every store that keeps mutable state.
///
/// Hold the lock for as short as possible and never across I/O or an `await`:
/// read or replace the state inside ``withLock(_:)`` and do the work outside.
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class LockedState<State>: @unchecked Sendable {
    // Safe to share: `state` is only touched while `mutex` is held. It lives behind a pointer rather than in a
    // stored `var`, so an access pays for the lock only, not for a second, dynamic exclusivity check.
    @usableFromInline
    internal let state: UnsafeMutablePointer<State>

    #if canImport(os)
    @usableFromInline
    internal let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
    @usableFromInline
    internal let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    /// Creates the guarded value.
    package init(_ initialState: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: initialState)
        self.mutex = .allocate(capacity: 1)
        #if canImport(os)
        self.mutex.initialize(to: os_unfair_lock())
        #else
        self.mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(self.mutex, nil)
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(self.mutex)
        #endif
        self.mutex.deinitialize(count: 1)
        self.mutex.deallocate()
        self.state.deinitialize(count: 1)
        self.state.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        #if canImport(os)
        os_unfair_lock_lock(self.mutex)
        defer { os_unfair_lock_unlock(self.mutex) }
        #else
        pthread_mutex_lock(self.mutex)
        defer { pthread_mutex_unlock(self.mutex) }
        #endif
        return try body(&self.state.pointee)
    }
}
