#if canImport(ObjectiveC)
internal import ForgeCore
internal import Foundation

/// A key-value observer of one key of a `UserDefaults`: how a ``UserDefaultsKVStore`` learns of the changes other
/// processes make to an app group's suite.
///
/// The system posts `UserDefaults.didChangeNotification` for this process's changes only. It tells key-value
/// observers of a key of every change to that key: those other processes make to the suite (an app group's other
/// apps and extensions), and this process's own, through any instance. So a store observes each key that has a
/// stream, and this observer calls back for every change.
///
/// The observer registers itself on the defaults for its one key when made, and removes itself when its
/// ``ChangeObservation`` ends or is released; the observation runs its end once. The key must be a name KVO takes
/// as a single key (``UserDefaultsKVStore/isKeyValueObservable(_:)``): KVO reads a dot as a key path's separator.
///
/// Only compiled where Objective-C exists (Apple platforms); the logic that decides what to observe is portable and
/// tested on Linux.
final class DefaultsKeyObserver: NSObject, @unchecked Sendable {
    // Safe to share: every property is a constant set before the observer registers, `UserDefaults` is documented
    // as thread-safe, and `onChange` is `Sendable`. KVO calls `observeValue` on the thread that made the change.

    /// The defaults observed.
    private let defaults: UserDefaults
    /// The key observed, as stored in the defaults.
    private let key: String
    /// Called after every change to the key.
    private let onChange: @Sendable () -> Void

    /// Creates an observer, not registered yet, of `key` in `defaults`.
    private init(key: String, defaults: UserDefaults, onChange: @escaping @Sendable () -> Void) {
        self.defaults = defaults
        self.key = key
        self.onChange = onChange
        super.init()
    }

    /// Calls `onChange` after every change to `key` in `defaults`, made by any process, this one too, until the
    /// returned observation ends.
    ///
    /// - Parameters:
    ///   - key: The key as stored in `defaults` (its NFC spelling); one KVO takes as a single key.
    ///   - defaults: The defaults to observe.
    ///   - onChange: Called on the thread that made the change, or on one the system chose for another process's.
    /// - Returns: The observation; ending or releasing it removes the observer, once.
    static func observe(
        _ key: String,
        of defaults: UserDefaults,
        _ onChange: @escaping @Sendable () -> Void
    ) -> ChangeObservation {
        let observer = DefaultsKeyObserver(key: key, defaults: defaults, onChange: onChange)
        defaults.addObserver(observer, forKeyPath: key, options: [.new], context: nil)
        // The observation holds the observer, which KVO does not retain, until it ends.
        return ChangeObservation { observer.defaults.removeObserver(observer, forKeyPath: observer.key) }
    }

    /// Tells of a change to the observed key.
    ///
    /// The observer is registered for one key of one object only, so every call is a change to that key; it does
    /// not call `super`, which raises for observations it did not make.
    override func observeValue(
        forKeyPath keyPath: String?,
        of object: Any?,
        change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        onChange()
    }
}
#endif
