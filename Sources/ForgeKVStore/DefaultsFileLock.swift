internal import ForgeCore
internal import Foundation

/// The advisory file lock every ``UserDefaultsKVStore`` on Linux holds while it reads or writes a domain's property
/// list, so that stores in different processes take turns.
///
/// swift-corelibs-foundation rewrites the property list in place (truncate, then write) and merges its changes into
/// the file as it read it just before, without any lock. Unguarded, a reader in another process can find the file
/// empty or half written (and read nil, or an old value), and two processes that write at the same time can each
/// drop the other's change. Holding this lock around every `synchronize()` rules both out among the stores; plain
/// `UserDefaults` code in other processes does not take it.
///
/// The lock is `flock` on one file, `.forge-defaults.lock`, in the folder CoreFoundation keeps property lists in:
/// `$XDG_CONFIG_HOME`, or `~/.config`. One file for every domain leaves nothing behind per suite; stores of different
/// domains then take turns too, for the few microseconds of one call (it is never held across an `await`). Where
/// the lock file cannot be opened (a read-only home), calls go ahead unlocked, as before.
/// On Apple platforms `cfprefsd` orders the processes' reads and writes, and this type does nothing.
struct DefaultsFileLock: Sendable {
    /// The lock file, or nil where no lock is needed.
    private let path: String?

    /// The lock shared by every domain.
    init() {
        #if canImport(Darwin)
        path = nil
        #else
        let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
        let folder = configured.hasPrefix("/") ? configured : NSHomeDirectory() + "/.config"
        path = folder + "/.forge-defaults.lock"
        #endif
    }

    /// Runs `body` while this process holds the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Each call opens the file anew: `flock` locks belong to the open file, so threads of one process exclude
        // each other too.
        guard let lockFile = openLockFile() else { return try body() }
        return try lockFile.withExclusiveLock(body)
    }

    /// The lock file, opened (and created with its folder when missing); nil where no lock is needed or it cannot
    /// be opened.
    private func openLockFile() -> Descriptor? {
        guard let path else { return nil }
        if let file = try? Descriptor(opening: path, .lock) { return file }
        var options = StoreFolder.Options()
        options.folderPermissions = 0o700
        _ = try? StoreFolder(path: (path as NSString).deletingLastPathComponent, options: options)
            .create(exactPermissions: false)
        return try? Descriptor(opening: path, .lock)
    }
}
