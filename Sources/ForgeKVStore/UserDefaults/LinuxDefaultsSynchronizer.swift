#if !canImport(Darwin)
internal import ForgeCore
internal import Foundation
internal import Synchronization

/// Keeps a ``UserDefaultsKVStore``'s `UserDefaults` and its property list in step on Linux: it writes changes behind,
/// one property-list rewrite for a burst of them, and has `UserDefaults` read the file again only when it changed.
///
/// swift-corelibs-foundation keeps a domain in memory, writes it only on `synchronize()` and reads it only once. Its
/// `synchronize()` costs the whole file: it reads and parses the property list, merges the pending changes of every
/// domain in, serializes it, writes it in place, flushes it to the device and reads it back to check it, in time that
/// grows with the number of keys; with nothing pending it forgets what it read, and the next read parses the file
/// again.
///
/// - A change (``write(_:)``) goes into `UserDefaults`' memory at once, under the ``DefaultsFileLock``, and schedules
///   a flush ``flushDelay`` later on a background queue, unless one is already waiting: that flush writes every
///   change made until it starts, so a burst of changes costs one rewrite. ``flush()`` writes now, and waits.
/// - A read (``read(_:)``) costs one system call and a lookup in `UserDefaults`' memory when nothing changed since
///   this store last read or wrote the property list: an `fstat` of the file, which the store holds open, tells
///   that it is still the file at its path with the same contents (``OpenFileVersion``); where there was no file,
///   a `stat` of the path tells that there still is none. Otherwise the read takes the lock: `open` and `flock` of
///   the lock file, the `fstat` again and a `stat` of the path (does it still name the file held open?), the
///   lookup, `flock` to unlock and `close`, six system calls; and only when the file changed, `synchronize()`,
///   which reloads it and keeps the changes not yet written, then an `open` and `fstat` of the file as it now is.
///   A read takes the lock the first time, after the folder's watch told of a write of the file, and after any
///   `synchronize()` this process's stores made (a flush of any domain), which has `UserDefaults` drop what it
///   read: `UserDefaults` then reads the file again under the lock, never while another process writes it.
/// - Every store that writes the property list moves its modification time past every one a store has compared
///   with (``DefaultsFileLock/Held/countWrite()``), so that its `stat` shows each store's write, also one within
///   the same tick of the file system's clock as the last.
/// - A process that exits normally (`exit` or a return from `main`) writes what is pending first: the first change
///   registers an `atexit` handler.
/// - ``observeOutsideChanges(_:)`` tells when the property list was written or removed, by any process.
///
/// Every call that may read or write the file but a read that finds it unchanged holds the ``DefaultsFileLock``.
/// Plain `UserDefaults` code of the process that calls `synchronize()` itself makes `UserDefaults` drop the domain
/// without this type knowing: the next read of a store then loads the file without the lock.
final class LinuxDefaultsSynchronizer: DefaultsSynchronizing, @unchecked Sendable {
    // Safe to share: `UserDefaults` is documented as thread-safe, and the mutable state is in `state`, a
    // `LockedState`. The descriptors it holds are only given to `fstat`, which any thread may call at once; one
    // closes when the last reference to it goes, so a read that took it from the state keeps it open.

    /// What this store did to the property list, for tests.
    struct Counts: Sendable, Equatable {
        /// `synchronize()` calls that wrote changes of this store.
        var rewrites = 0
        /// `synchronize()` calls made because the file changed on disk.
        var reloads = 0
        /// Reads that took the lock: the first, and those after a change, a flush or the watch's notice.
        var lockedReads = 0
        /// Reads that looked at the file without the lock, each with one system call (`fstat` or `stat`).
        var checks = 0
    }

    /// The property list as this store last read or wrote it, with the lock held.
    private struct KnownFile {
        /// The property list, held open so that a read tells with one `fstat` whether it changed; nil when there was
        /// none, or it could not be opened.
        var file: Descriptor?
        /// What `fstat` told of `file` then; nil without a file.
        var version: OpenFileVersion?
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
        /// The process's ``synchronizations`` when `UserDefaults` last loaded the domain under the lock; nil from
        /// this store's own `synchronize()` until a read loads it again.
        var loadedAt: UInt64?
        /// How many times the folder's watch told of a write of the property list.
        var outsideChanges: UInt64 = 0
        /// ``outsideChanges`` when `known` was taken.
        var knownOutsideChanges: UInt64 = 0
        /// The counts for tests.
        var counts = Counts()

        /// The file to compare with, counted as a check, when a read may answer from memory after it: the domain is
        /// in `UserDefaults`' memory since `synchronizations`, and no change was told since the file was looked at.
        mutating func knownFileToCheck(at synchronizations: UInt64) -> KnownFile? {
            guard let known, loadedAt == synchronizations, outsideChanges == knownOutsideChanges else { return nil }
            counts.checks += 1
            return known
        }
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

    /// How many `synchronize()` calls this process's stores began: each has `UserDefaults` drop the domains without
    /// pending changes, and every read that did not take the lock checks it did not change meanwhile.
    private static let synchronizations = Atomic<UInt64>(0)

    /// The domains this process's stores have changed, whose writes the `atexit` handler records.
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
        self.plistPath = DefaultsFileLock.propertyListPath(of: domainName)
        self.fileLock = DefaultsFileLock(domainName: domainName)
    }

    /// What this store did to the property list so far.
    var counts: Counts {
        state.withLock { $0.counts }
    }

    /// How many `synchronize()` calls this process's stores began so far, for tests.
    static var synchronizationCount: UInt64 {
        synchronizations.load(ordering: .sequentiallyConsistent)
    }

    /// Runs `body`, a read of `defaults`, after one `fstat` of the property list when it did not change since this
    /// store last read or wrote it; else under the lock, after having `UserDefaults` load the file again if it
    /// changed.
    func read<Result>(_ body: () -> Result) -> Result {
        let synchronizations = Self.synchronizations.load(ordering: .sequentiallyConsistent)
        if let known = state.withLock({ $0.knownFileToCheck(at: synchronizations) }), isUnchanged(known) {
            let result = body()
            // A `synchronize()` that began meanwhile may have had `UserDefaults` drop the domain, and `body` load the
            // file again without the lock: then it runs again with it.
            if Self.synchronizations.load(ordering: .sequentiallyConsistent) == synchronizations { return result }
        }
        return fileLock.withLock { held in
            state.withLock { $0.counts.lockedReads += 1 }
            reloadIfChanged(held)
            // Reading any key has `UserDefaults` load, here under the lock, the domain and those it reads with, if it
            // dropped them: the reads that do not lock then find them in memory.
            _ = defaults.object(forKey: "")
            let result = body()
            let loaded = Self.synchronizations.load(ordering: .sequentiallyConsistent)
            state.withLock { $0.loadedAt = loaded }
            return result
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
            // The stores that hold the file open see it has no name left; a file written later gets a modification
            // time past every one they saw. Nothing is pending now: this only has `UserDefaults` forget the values
            // it read.
            synchronize(held)
            return nil
        }
        if let failure { throw .removeAllFailed(underlying: failure) }
    }

    /// Calls `onChange` when the domain may have changed other than through this process's stores, until the returned
    /// observation ends; the change may be to any key.
    ///
    /// That is when the property list is written, replaced or removed, by any process, this one's flushes included
    /// (one inotify watch of the folder per process, ``FolderWatch``). A read made after the call sees the change: the
    /// notice has it take the lock, so it waits for the writer's, and it loads the file again since its `stat`
    /// changed. `UserDefaults` on Linux writes a property list only when it flushes, so another process's changes
    /// arrive when it flushes, not when it makes them.
    func observeOutsideChanges(_ onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        let folder = (plistPath as NSString).deletingLastPathComponent
        let fileName = (plistPath as NSString).lastPathComponent
        // nil: the folder appeared or went, or the kernel dropped events; the file may have changed too.
        return FolderWatch.observe(folder) { [weak self] name in
            guard name == nil || name == fileName else { return }
            // The writer may still hold the lock, its write not yet shown in the file's `stat`.
            self?.state.withLock { $0.outsideChanges += 1 }
            onChange()
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

    /// Whether the property list is as `known` saw it, in one system call.
    ///
    /// The file held open has the same version, or there still is none at the path.
    private func isUnchanged(_ known: KnownFile) -> Bool {
        if let file = known.file { return (try? file.openFileVersion()) == known.version }
        return (try? Descriptor.version(ofFileAt: plistPath)) == .some(nil)
    }

    /// Has `UserDefaults` load the property list again when it changed since this store last read or wrote it; with
    /// the lock held.
    private func reloadIfChanged(_ held: DefaultsFileLock.Held) {
        let outsideChanges = state.withLock { $0.outsideChanges }
        let known = state.withLock { $0.known }
        if let known, isUnchanged(known), pathNamesFile(of: known) {
            state.withLock { $0.knownOutsideChanges = outsideChanges }
            return
        }
        state.withLock { $0.counts.reloads += 1 }
        synchronize(held)
    }

    /// Whether the property list's path still names the file `known` holds open (or none, when it holds none): what a
    /// rename in the same clock tick as the file's last change would hide from `fstat`.
    private func pathNamesFile(of known: KnownFile) -> Bool {
        guard let held = known.version?.version else { return true }
        let named = (try? Descriptor.version(ofFileAt: plistPath)) ?? nil
        return named?.device == held.device && named?.inode == held.inode
    }

    /// Has `UserDefaults` write the pending changes of every domain and forget what it read, with the lock held, and
    /// records the outcome and the file as it is then; returns whether it could write.
    @discardableResult
    private func synchronize(_ held: DefaultsFileLock.Held) -> Bool {
        let (changes, pending, outsideChanges) = state.withLock {
            ($0.changes, $0.writtenChanges < $0.changes, $0.outsideChanges)
        }
        let before = currentVersion()
        // Before the call: a read that did not lock and sees the count unchanged after its lookup knows that no
        // `synchronize()` had `UserDefaults` drop the domain meanwhile.
        Self.synchronizations.add(1, ordering: .sequentiallyConsistent)
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
        let known = openPropertyList()
        held.recordSeen(known.version?.version)
        let failure = saved ? nil : writeFailure()
        state.withLock { state in
            state.known = known
            state.knownOutsideChanges = outsideChanges
            state.loadedAt = nil
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

    /// The property list, opened, and its version; no file when there is none or it cannot be opened.
    private func openPropertyList() -> KnownFile {
        guard let file = try? Descriptor(opening: plistPath, .read), let version = try? file.openFileVersion() else {
            return KnownFile(file: nil, version: nil)
        }
        return KnownFile(file: file, version: version)
    }

    /// Whether the property list holds exactly what `UserDefaults` holds for the domain, so nothing is left to write.
    private func propertyListHoldsDomain() -> Bool {
        // swift-corelibs-foundation hands some values back wrapped in an `Optional`.
        let memory = (defaults.persistentDomain(forName: domainName) ?? [:]).compactMapValues(Self.unwrapped)
        guard let data = try? Descriptor(opening: plistPath, .read).readAll() else { return memory.isEmpty }
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
                synchronizations.add(1, ordering: .sequentiallyConsistent)
                guard UserDefaults.standard.synchronize() else { return }
                for domain in domains { held.countWrite(ofDomain: domain) }
            }
    }
}
#endif
