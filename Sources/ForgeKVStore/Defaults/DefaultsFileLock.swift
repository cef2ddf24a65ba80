internal import ForgeCore
internal import Foundation

/// The advisory file lock every ``UserDefaultsKVStore`` on Linux holds while `UserDefaults` may read or write a
/// domain's property list, so that stores in different processes take turns, and the count of property-list writes
/// the stores keep in it.
///
/// swift-corelibs-foundation rewrites the property list in place (truncate, then write) and merges its changes into
/// the file as it read it just before, without any lock. Unguarded, a reader in another process can find the file
/// empty or half written (and read nil, or an old value), and two processes that write at the same time can each
/// drop the other's change. Holding this lock around every call that may read or write the file rules both out among
/// the stores; plain `UserDefaults` code in other processes does not take it.
///
/// The lock is `flock` on one file, `.forge-defaults.lock`, in the folder CoreFoundation keeps property lists in:
/// `$XDG_CONFIG_HOME`, or `~/.config`. One file for every domain leaves nothing behind per suite; stores of different
/// domains then take turns too, for the time of one call (a property-list rewrite at most; it is never held across an
/// `await`). Where the lock file cannot be opened (a read-only home), calls go ahead unlocked, as before.
/// On Apple platforms `cfprefsd` orders the processes' reads and writes, and this type does nothing.
///
/// The file also counts each domain's property-list writes by the stores of every process (``Held/writeCount``).
/// A file's modification time alone does not show every write: many file systems keep it in ticks of a few
/// milliseconds, so a rewrite to the same size within one tick leaves the file's `stat` as it was. The count does.
/// Each domain counts in one of ``counterSlots`` 8-byte slots, chosen by a stable hash of its name, so that a write
/// to one domain does not make the stores of others read their files again; two domains that share a slot only
/// reload more often than needed, never less.
struct DefaultsFileLock: Sendable {
    /// The lock while this process holds it: the count of property-list writes, to read and to advance.
    struct Held {
        /// The open lock file; nil where the lock could not be taken.
        fileprivate let file: Descriptor?
        /// Where in the file the domain's count is.
        fileprivate let counterOffset: Int

        /// How many times a store has written the domain's property list since the lock file was created (or that of
        /// a domain sharing its slot); 0 when unknown.
        var writeCount: UInt64 {
            (try? file?.readCounter(at: counterOffset)) ?? 0
        }

        /// Counts a property-list write, so that stores in every process see that the file changed.
        func countWrite() {
            countWrite(at: counterOffset)
        }

        /// Counts a write of `domainName`'s property list, which a `synchronize()` for another domain made.
        func countWrite(ofDomain domainName: String) {
            countWrite(at: DefaultsFileLock.counterOffset(of: domainName))
        }

        private func countWrite(at offset: Int) {
            let count = (try? file?.readCounter(at: offset)) ?? 0
            try? file?.writeCounter(count &+ 1, at: offset)
        }
    }

    /// How many domains can count their writes apart; the lock file grows to 8 bytes each at most (32 KiB).
    static let counterSlots: UInt64 = 4096

    /// The lock file, or nil where no lock is needed.
    private let path: String?
    /// Where in the lock file `domainName`'s count is.
    private let counterOffset: Int

    /// The lock shared by every domain, with the write count of `domainName`.
    init(domainName: String) {
        #if canImport(Darwin)
        path = nil
        #else
        path = Self.preferencesFolder + "/.forge-defaults.lock"
        #endif
        counterOffset = Self.counterOffset(of: domainName)
    }

    /// Where in the lock file `domainName`'s count is.
    static func counterOffset(of domainName: String) -> Int {
        let hash = UInt64(FileNameEncoding.stableHash(domainName), radix: 16) ?? 0
        return Int(hash % counterSlots) * 8
    }

    /// The folder swift-corelibs-foundation keeps property lists in: `$XDG_CONFIG_HOME` when it is an absolute path,
    /// else `~/.config`.
    static var preferencesFolder: String {
        let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
        return configured.hasPrefix("/") ? configured : NSHomeDirectory() + "/.config"
    }

    /// Runs `body` while this process holds the lock.
    func withLock<Result>(_ body: (Held) throws -> Result) rethrows -> Result {
        // Each call opens the file anew: `flock` locks belong to the open file, so threads of one process exclude
        // each other too.
        guard let lockFile = openLockFile() else { return try body(Held(file: nil, counterOffset: counterOffset)) }
        return try lockFile.withExclusiveLock { try body(Held(file: lockFile, counterOffset: counterOffset)) }
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
