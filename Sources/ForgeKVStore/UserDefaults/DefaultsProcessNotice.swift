#if canImport(notify)
internal import Dispatch
internal import ForgeCore
internal import notify
#endif

/// A Darwin notification per defaults domain, which every process's ``UserDefaultsKVStore`` posts after each change:
/// how a stream in one process of an app group sees what another process's stores change, whatever the key's name.
///
/// Key-value observers tell of other processes' changes too, but only for keys without a `.` in their names; this
/// notice covers the rest when the other process writes through this library. Its name starts with the domain (an
/// app group's identifier for a shared suite), as sandboxed apps name what they share with their group.
///
/// The name is portable, so the tests pin it on every platform; posting and observing need `notify` (Apple
/// platforms).
enum DefaultsProcessNotice {
    /// The notification's name for `domain`: the domain, then a suffix of this library's.
    ///
    /// Every version of the library must give the same name, or an app and its extensions built with different
    /// versions would not see each other's changes.
    static func name(of domain: String) -> String {
        domain + ".forge-storage.defaults-changed"
    }
}

#if canImport(notify)
extension DefaultsProcessNotice {
    /// Tells every process observing `domain` that one of its keys changed.
    static func post(in domain: String) {
        _ = notify_post(name(of: domain))
    }

    /// Calls `onChange` when any process posts the notice of `domain`, until the returned observation ends.
    static func observe(_ domain: String, onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        var token: Int32 = 0
        let status = notify_register_dispatch(name(of: domain), &token, DispatchQueue.global()) { _ in onChange() }
        guard status == 0 else { return ChangeObservation {} }
        let registered = token
        return ChangeObservation { _ = notify_cancel(registered) }
    }
}
#endif
