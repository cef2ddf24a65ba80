internal import ForgeCore
internal import Foundation

/// What a ``UserDefaultsKVStore`` asks of the type that keeps its `UserDefaults` and the domain's storage in step:
/// one type per platform family, chosen at compile time as ``DefaultsSynchronizer``.
///
/// On Linux (``LinuxDefaultsSynchronizer``) the store writes behind and reloads the property list when another
/// process changed it; on Apple platforms (``DarwinDefaultsSynchronizer``) `cfprefsd` does both, and the calls only
/// run their bodies. Both conform on every platform that compiles them, so each keeps the interface the store uses.
protocol DefaultsSynchronizing: AnyObject, Sendable {
    /// A synchronizer for `defaults`, whose persistent domain is `domainName`.
    init(defaults: UserDefaults, domainName: String)

    /// Runs `body`, a read of the store's `UserDefaults`, once it may see what other processes finished writing.
    func read<Result>(_ body: () -> Result) -> Result

    /// Runs `body`, a change to the store's `UserDefaults`, and has it persisted.
    func write(_ body: () -> Void)

    /// Writes every change made before the call to the domain's storage, and returns once it is there.
    ///
    /// - Throws: ``KVStoreError/flushFailed(domain:underlying:)`` when the changes cannot be written.
    func flush() throws(KVStoreError)

    /// Removes every value of the domain, also those not yet written and those other processes wrote.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the domain's storage cannot be changed.
    func removeDomain() throws(KVStoreError)

    /// Calls `onChange` when the domain may have changed other than through this process's stores, until the
    /// returned observation ends; the change may be to any key.
    func observeOutsideChanges(_ onChange: @escaping @Sendable () -> Void) -> ChangeObservation
}

extension DefaultsSynchronizing {
    /// The queue every flush behind runs on, whatever the domain; tests suspend it to hold flushes back.
    ///
    /// Nothing runs on it on Apple platforms, where `cfprefsd` persists changes.
    static var queue: DispatchQueue { defaultsFlushQueue }
}

/// The queue behind ``DefaultsSynchronizing/queue``.
private let defaultsFlushQueue = DispatchQueue(label: "ForgeKVStore.UserDefaultsKVStore.flush")
