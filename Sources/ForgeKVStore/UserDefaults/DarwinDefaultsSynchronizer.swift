internal import ForgeCore
internal import Foundation

/// Keeps a ``UserDefaultsKVStore``'s `UserDefaults` in step with other processes on Apple platforms, where
/// `cfprefsd` persists and shares every change by itself: reads and writes only run their bodies, and
/// ``flush()`` has nothing to do.
///
/// It is compiled on every platform, so that the tests on Linux run all of it but the Darwin notification
/// (``DefaultsProcessNotice``); ``DefaultsSynchronizer`` names it only on Apple platforms.
final class DarwinDefaultsSynchronizer: DefaultsSynchronizing, @unchecked Sendable {
    // Safe to share: its properties are constants, and `UserDefaults` is documented as thread-safe.

    /// The defaults the store reads and writes.
    private let defaults: UserDefaults
    /// The domain whose values ``removeDomain()`` removes, and whose Darwin notification tells of other processes'
    /// changes.
    private let domainName: String

    /// A synchronizer for `defaults`, whose persistent domain is `domainName`.
    init(defaults: UserDefaults, domainName: String) {
        self.defaults = defaults
        self.domainName = domainName
    }

    /// Runs `body`: `UserDefaults` sees what other processes wrote by itself.
    func read<Result>(_ body: () -> Result) -> Result {
        body()
    }

    /// Runs `body`: `cfprefsd` persists the change by itself.
    func write(_ body: () -> Void) {
        body()
    }

    /// Does nothing: `cfprefsd` persists every change by itself.
    func flush() throws(KVStoreError) {}

    /// Removes every key of the domain through ``defaults``, so that `cfprefsd` removes them for every process.
    func removeDomain() throws(KVStoreError) {
        let domain: [String: Any] = defaults.persistentDomain(forName: domainName) ?? [:]
        for key in domain.keys { defaults.removeObject(forKey: key) }
    }

    /// Calls `onChange` when the system posts `UserDefaults.didChangeNotification` for ``defaults``, that is, for a
    /// change any code of this process makes through that instance (the system posts it for no other process), and
    /// when a store of the domain in any process posts ``DefaultsProcessNotice`` after a change; until the returned
    /// observation ends.
    func observeOutsideChanges(_ onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        let registration = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification,
            object: defaults,
            queue: nil
        ) { _ in onChange() }
        // Not `Sendable` (an `NSObjectProtocol`), but only handed back to `NotificationCenter`, which is thread-safe.
        nonisolated(unsafe) let token = registration
        #if canImport(notify)
        let otherProcesses = DefaultsProcessNotice.observe(domainName, onChange: onChange)
        #endif
        return ChangeObservation {
            NotificationCenter.default.removeObserver(token)
            #if canImport(notify)
            otherProcesses.end()
            #endif
        }
    }
}
