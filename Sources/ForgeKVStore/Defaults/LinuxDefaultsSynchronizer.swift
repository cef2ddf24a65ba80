#if !canImport(Darwin)
internal import ForgeCore
internal import Foundation

/// Keeps a ``UserDefaultsKVStore``'s `UserDefaults` and its property list in step on Linux: it writes changes behind,
/// one property-list rewrite for a burst of them, and has `UserDefaults` read the file again only when it changed.
///
/// swift-corelibs-foundation keeps a domain in memory, writes it only on `synchronize()` and reads it only once. Its
/// `synchronize()` costs the whole file: it reads and parses the property list, merges the pending changes of every
/// domain in, serializes it, writes it in place, flushes it to the device and reads it back to check it (7 ms at
/// 10,000 keys); with nothing pending it forgets what it read, and the next read parses the file again (10 ms).
///
/// - A change (``write(_:)``) goes into `UserDefaults`' memory at once, and schedules a flush ``flushDelay`` later on
///   a background queue, unless one is already waiting: that flush writes every change made until it starts, so a
///   burst of changes costs one rewrite. ``flush()`` writes now, and waits.
/// - A read (``read(_:)``) compares the property list's `stat` and the stores' write count of the domain (``DefaultsFileLock``)
///   with what they were when this store last read or wrote the file, and only when either changed calls
///   `synchronize()`, which reloads the file and keeps the changes not yet written.
/// - A process that exits normally (`exit` or a return from `main`) writes what is pending first: the first change
///   registers an `atexit` handler.
/// - ``observeOutsideChanges(_:)`` tells when the property list was written or removed, by any process.
///
/// Every call that may read or write the file holds the ``DefaultsFileLock``.
final class LinuxDefaultsSynchronizer: DefaultsSynchronizing, @unchecked Sendable {
    // Safe to share: `UserDefaults` is documented as thread-safe, and the mutable state is in `state`, a
    // `LockedState`.

    /// How many times this store's changes were written to the property list, and how many times it had
    /// `UserDefaults` read the file again, for tests.
    struct Counts: Sendable, Equatable {
        /// `synchronize()` calls that wrote changes of this store.
        var rewrites = 0
        /// `synchronize()` calls made because the file changed on disk.
        var reloads = 0
    }

    /// The property list and the stores' write count, as this store last read or wrote them.
    private struct KnownFile: Equatable {
        /// The stores' write count (``DefaultsFileLock/Held/writeCount``).
        var writeCount: UInt64
        /// The property list's version; nil when there was none (or it could not be read).
        var version: FileVersion?
    }

    /// What the synchronizer knows, guarded by one lock.
    private struct State {
        /// How many changes the store has made.
        var changes: UInt64 = 0
        /// How many of them are in the property list: the count when the last successful `synchronize()` began.
        var writtenChanges: UInt64 = 0
        /// Whether a flush behind is waiting to run.
        var flushScheduled = false
        /// Why the last `synchronize()` failed to write, until one succeeds.
        var failure: FailureReason?
        /// The file as this store last read or wrote it; nil before it first did.
        var known: KnownFile?
        /// The counts for tests.
        var counts = Counts()
    }

    /// How long a flush behind waits after the change that scheduled it, so that the changes of a burst share it.
    ///
    /// A set during a rewrite waits for it (`UserDefaults` holds its own lock meanwhile), so a flush that started at
    /// once would carry one change and stall the next: 10 ms lets a burst of sets go into memory first. A crash loses
    /// the changes of this delay and of one rewrite, or more while the lock is held elsewhere or the file cannot be
    /// written.
    static let flushDelay: DispatchTimeInterval = .milliseconds(10)

    /// How long a flush behind that could not write waits before it tries again.
    static let retryDelay: DispatchTimeInterval = .seconds(1)

    /// The domains this process's stores have changed, whose writes the `atexit` handler counts.
    private static let changedDomains = LockedState(Set<String>())

    /// Registers, once per process, the `atexit` handler that writes what the stores have not written yet.
    private static let exitFlush: Void = {
        atexit { LinuxDefaultsSynchronizer.flushAtExit() }
    }()

    /// The defaults the store reads and writes.
    private let defaults: UserDefaults
    /// The domain whose property list is watched, for errors.
    private let domainName: String
    /// The domain's property list.
    private let plistPath: String
    /// The lock every process's stores hold around the file.
    private let fileLock: DefaultsFileLock
    /// The counts of changes and writes, what is known of the file, and the last failure.
    private let state = LockedState(State())

    /// A synchronizer for `defaults`, whose persistent domain is `domainName`.
    init(defaults: UserDefaults, domainName: String) {
        self.defaults = defaults
        self.domainName = domainName
        self.plistPath = DefaultsFileLock.preferencesFolder + "/\(domainName).plist"
        self.fileLock = DefaultsFileLock(domainName: domainName)
    }

    /// The counts of rewrites and reloads so far.
    var counts: Counts {
        state.withLock { $0.counts }
    }

    /// Runs `body`, a read of `defaults`, after having `UserDefaults` load the property list again when it changed
    /// since this store last read or wrote it.
    func read<Result>(_ body: () -> Result) -> Result {
        fileLock.withLock { held in
            reloadIfChanged(held)
            return body()
        }
    }

    /// Runs `body`, a change to `defaults`, and schedules the flush that writes it to the property list.
    func write(_ body: () -> Void) {
        // Under the lock: `UserDefaults` may load the file to make the change. It is reloaded first when another
        // process wrote it, or a value equal to a stale one would be taken for no change and never written.
        fileLock.withLock { held in
            reloadIfChanged(held)
            body()
        }
        // Counted after the change is made, so that a flush that has counted it also writes it.
        let schedule = state.withLock { state in
            state.changes += 1
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        _ = Self.exitFlush
        if schedule {
            Self.changedDomains.withLock { _ = $0.insert(domainName) }
            Self.queue.asyncAfter(deadline: .now() + Self.flushDelay) { self.flushBehind() }
        }
    }

    /// Writes every change made before the call to the property list, and returns once it is there.
    ///
    /// - Throws: ``KVStoreError/flushFailed(domain:underlying:)`` when the property list cannot be written; the changes
    ///   stay pending, and the next flush tries again.
    func flush() throws(KVStoreError) {
        let target = state.withLock { $0.changes }
        fileLock.withLock { held in
            // A flush behind may have written them while this call waited for the lock.
            guard state.withLock({ $0.writtenChanges < target }) else { return }
            synchronize(held)
        }
        let (written, failure) = state.withLock { ($0.writtenChanges, $0.failure) }
        guard written >= target else {
            throw .flushFailed(domain: domainName, underlying: failure ?? "UserDefaults could not write it")
        }
    }

    /// Removes the domain's property list, with every value in it, also those not yet written and those other
    /// processes wrote, and has `UserDefaults` forget them.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the property list cannot be written or removed.
    func removeDomain() throws(KVStoreError) {
        let failure: FailureReason? = fileLock.withLock { held in
            // First written, so that nothing pending is left for a later `synchronize()` to bring back.
            guard synchronize(held) else { return state.withLock { $0.failure } ?? "UserDefaults could not write it" }
            if let problem = removePropertyList() { return problem }
            held.countWrite()
            // Nothing is pending now: this only has `UserDefaults` forget the values it read.
            synchronize(held)
            return nil
        }
        if let failure { throw .removeAllFailed(underlying: failure) }
    }

    /// Calls `onChange` when the domain may have changed other than through this process's stores, until the returned
    /// observation ends; the change may be to any key.
    ///
    /// That is when the property list is written, replaced or removed, by any process, this one's flushes included
    /// (one inotify watch of the folder per process, ``FolderWatch``). A read made after the call sees the change: it
    /// waits for the writer's lock, and loads the file again since its `stat` and the stores' write count changed.
    /// `UserDefaults` on Linux writes a property list only when it flushes, so another process's changes arrive when
    /// it flushes, not when it makes them.
    func observeOutsideChanges(_ onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        let folder = (plistPath as NSString).deletingLastPathComponent
        let fileName = (plistPath as NSString).lastPathComponent
        // nil: the folder appeared or went, or the kernel dropped events; the file may have changed too.
        return FolderWatch.observe(folder) { name in
            if name == nil || name == fileName { onChange() }
        }
    }

    /// Writes the pending changes, if they were not written meanwhile; run on ``queue``.
    private func flushBehind() {
        state.withLock { $0.flushScheduled = false }
        let saved = fileLock.withLock { held in
            guard state.withLock({ $0.writtenChanges < $0.changes }) else { return true }
            return synchronize(held)
        }
        guard !saved else { return }
        // The changes stay pending: try again later, unless a change or a flush has scheduled it meanwhile.
        let schedule = state.withLock { state in
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { Self.queue.asyncAfter(deadline: .now() + Self.retryDelay) { self.flushBehind() } }
    }

    /// Has `UserDefaults` load the property list again when it or the stores' write count changed since this store
    /// last read or wrote it; with the lock held.
    private func reloadIfChanged(_ held: DefaultsFileLock.Held) {
        let current = KnownFile(writeCount: held.writeCount, version: currentVersion())
        let changed = state.withLock { state in
            guard state.known != current else { return false }
            state.counts.reloads += 1
            return true
        }
        if changed { synchronize(held) }
    }

    /// Has `UserDefaults` write the pending changes of every domain and forget what it read, with the lock held, and
    /// records the outcome; returns whether it could write.
    @discardableResult
    private func synchronize(_ held: DefaultsFileLock.Held) -> Bool {
        let (changes, pending) = state.withLock { ($0.changes, $0.writtenChanges < $0.changes) }
        let before = currentVersion()
        // `synchronize()` writes every domain of the process and fails when any one fails: this store's own write is
        // judged by its own file, which must have changed when this store had changes, and be writable.
        let synchronized = defaults.synchronize()
        let after = currentVersion()
        // When `synchronize()` failed for another domain of the process (a test's on a read-only volume) and this
        // store's change wrote nothing new (a remove of a missing key), the file is unchanged yet holds every change.
        let saved =
            synchronized || ((!pending || after != before) && Descriptor.problemWriting(toPath: plistPath) == nil)
            || propertyListHoldsDomain()
        // Other code's changes to `defaults` are written too; a changed version shows those.
        if saved && (pending || after != before) { held.countWrite() }
        let known = KnownFile(writeCount: held.writeCount, version: after)
        let failure = saved ? nil : writeFailure()
        state.withLock { state in
            state.known = known
            if saved {
                if pending { state.counts.rewrites += 1 }
                state.writtenChanges = max(state.writtenChanges, changes)
                state.failure = nil
            } else {
                state.failure = failure
            }
        }
        return saved
    }

    /// Whether the property list holds exactly what `UserDefaults` holds for the domain, so nothing is left to write.
    private func propertyListHoldsDomain() -> Bool {
        // swift-corelibs-foundation hands some values back wrapped in an `Optional`.
        let memory = (defaults.persistentDomain(forName: domainName) ?? [:]).compactMapValues(Self.unwrapped)
        guard let data = FileManager.default.contents(atPath: plistPath) else { return memory.isEmpty }
        // Both sides as the property-list decoder makes them, so that equal values compare equal whatever their types.
        guard let file = try? PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary,
            let encoded = try? PropertyListSerialization.data(fromPropertyList: memory, format: .binary, options: 0),
            let decoded = try? PropertyListSerialization.propertyList(from: encoded, format: nil) as? NSDictionary
        else { return false }
        return file.isEqual(decoded)
    }

    /// `value` without the `Optional`s around it; nil for an `Optional` that holds nothing.
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.flatMap { unwrapped($0.value) }
    }

    /// The property list's version now; nil when there is none or it cannot be read.
    private func currentVersion() -> FileVersion? {
        (try? Descriptor.version(ofFileAt: plistPath)) ?? nil
    }

    /// Why `UserDefaults` could not write the property list, as far as the file system tells.
    private func writeFailure() -> FailureReason {
        Descriptor.problemWriting(toPath: plistPath)?.reason ?? "UserDefaults could not write the property list"
    }

    /// Removes the property list; returns why it could not be removed, or nil (also when there was none).
    private func removePropertyList() -> FailureReason? {
        let folderPath = (plistPath as NSString).deletingLastPathComponent
        let name = EntryName((plistPath as NSString).lastPathComponent)
        do {
            let folder = try Descriptor(opening: folderPath, .folder)
            try folder.remove(name, kinds: [.file, .symbolicLink])
            return nil
        } catch {
            return error.isNotFound ? nil : error.reason
        }
    }

    /// Writes what every store of the process has not written yet; the `atexit` handler.
    ///
    /// `synchronize()` on any `UserDefaults` writes the pending changes of every domain the process holds.
    private static func flushAtExit() {
        let domains = changedDomains.withLock { $0 }
        guard let anyDomain = domains.first else { return }
        DefaultsFileLock(domainName: anyDomain)
            .withLock { held in
                guard UserDefaults.standard.synchronize() else { return }
                for domain in domains { held.countWrite(ofDomain: domain) }
            }
    }
}
#endif
