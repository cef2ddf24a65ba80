internal import ForgeCore
internal import Foundation

/// The advisory file lock every ``UserDefaultsKVStore`` on Linux holds while `UserDefaults` may read or write a
/// domain's property list, so that stores in different processes take turns, and the record that lets a store see
/// every other store's write of a property list in its `stat`.
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
/// A store tells whether a property list changed from its `stat` alone (``LinuxDefaultsSynchronizer``), but the
/// file's modification time alone does not show every write: many file systems keep it in ticks of a few
/// milliseconds, so a rewrite to the same size within one tick leaves the `stat` as it was. So the lock file keeps,
/// for each domain, the latest modification time a store has seen its property list have (``Held/recordSeen(_:)``),
/// and a store that wrote the file moves its modification time past that one (``Held/countWrite()``): every
/// modification time a store may compare with is then older than the file's after any store's write. Each domain
/// keeps it in one of ``slots`` 8-byte slots, chosen by a stable hash of its name; two domains that share a slot
/// only have their files' times moved a few nanoseconds more than needed.
struct DefaultsFileLock: Sendable {
    /// The lock while this process holds it: the record of the property lists' modification times, to read and to
    /// advance.
    struct Held {
        /// The open lock file; nil where the lock could not be taken.
        fileprivate let file: Descriptor?
        /// The domain whose property list the lock was taken for.
        fileprivate let domainName: String

        /// Records a store's write of the domain's property list, so that stores in every process see in its `stat`
        /// that it changed: moves its modification time past every one a store has seen it have, when it is not
        /// past them already (a write in the same clock tick as the last one).
        ///
        /// Call it after the write, with the lock held since before it.
        func countWrite() {
            countWrite(ofDomain: domainName)
        }

        /// Records a write of `domainName`'s property list, which a `synchronize()` for another domain made.
        func countWrite(ofDomain domainName: String) {
            guard let file else { return }
            let path = DefaultsFileLock.propertyListPath(of: domainName)
            let offset = DefaultsFileLock.slotOffset(of: domainName)
            guard let version = (try? Descriptor.version(ofFileAt: path)) ?? nil else { return }
            let latestSeen = (try? file.readCounter(at: offset)) ?? 0
            var modified = DefaultsFileLock.nanoseconds(of: version)
            if modified <= latestSeen {
                // A nanosecond past it, which every file system that keeps nanoseconds keeps: ext4, XFS, Btrfs, tmpfs.
                let stamped = latestSeen + 1
                let seconds = Int64(stamped / 1_000_000_000)
                let nanoseconds = Int64(stamped % 1_000_000_000)
                if (try? Descriptor.setModificationTime(ofFileAt: path, seconds: seconds, nanoseconds: nanoseconds))
                    != nil
                {
                    modified = stamped
                }
            }
            try? file.writeCounter(max(modified, latestSeen), at: offset)
        }

        /// Records that a store compares the property list with `version` from now on, so that any store's next
        /// write moves the file's modification time past it.
        func recordSeen(_ version: FileVersion?) {
            guard let file, let version else { return }
            let offset = DefaultsFileLock.slotOffset(of: domainName)
            let latestSeen = (try? file.readCounter(at: offset)) ?? 0
            let modified = DefaultsFileLock.nanoseconds(of: version)
            if modified > latestSeen { try? file.writeCounter(modified, at: offset) }
        }
    }

    /// How many domains can keep their property lists' times apart; the lock file grows to 8 bytes each at most
    /// (32 KiB).
    static let slots: UInt64 = 4096

    /// The lock file, or nil where no lock is needed.
    private let path: String?
    /// The domain the lock is taken for.
    private let domainName: String

    /// The lock shared by every domain, taken for `domainName`'s property list.
    init(domainName: String) {
        #if canImport(Darwin)
        path = nil
        #else
        path = Self.preferencesFolder + "/.forge-defaults.lock"
        #endif
        self.domainName = domainName
    }

    /// Where in the lock file `domainName`'s latest modification time is.
    static func slotOffset(of domainName: String) -> Int {
        let hash = UInt64(FileNameEncoding.stableHash(domainName), radix: 16) ?? 0
        return Int(hash % slots) * 8
    }

    /// The folder swift-corelibs-foundation keeps property lists in: `$XDG_CONFIG_HOME` when it is an absolute path,
    /// else `~/.config`.
    static var preferencesFolder: String {
        let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? ""
        return configured.hasPrefix("/") ? configured : NSHomeDirectory() + "/.config"
    }

    /// The property list swift-corelibs-foundation keeps `domainName` in.
    static func propertyListPath(of domainName: String) -> String {
        preferencesFolder + "/\(domainName).plist"
    }

    /// `version`'s modification time in nanoseconds since 1970; 0 for one before, the latest for one past 2554.
    private static func nanoseconds(of version: FileVersion) -> UInt64 {
        guard version.modificationSeconds >= 0 else { return 0 }
        let (seconds, overflow) = UInt64(version.modificationSeconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .max - 1 }
        return seconds &+ UInt64(clamping: version.modificationNanoseconds)
    }

    /// Runs `body` while this process holds the lock.
    func withLock<Result>(_ body: (Held) throws -> Result) rethrows -> Result {
        // Each call opens the file anew: `flock` locks belong to the open file, so threads of one process exclude
        // each other too.
        guard let lockFile = openLockFile() else { return try body(Held(file: nil, domainName: domainName)) }
        return try lockFile.withExclusiveLock { try body(Held(file: lockFile, domainName: domainName)) }
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
