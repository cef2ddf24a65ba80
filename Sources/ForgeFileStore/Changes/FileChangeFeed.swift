internal import ForgeCore
internal import Foundation

/// The changes to the files beneath one folder of a ``DiskFileStore``, from any process, told to every stream of
/// that folder.
///
/// One feed per store folder and observed folder in a process, however many streams: it keeps the versions of the
/// files beneath the observed folder, and when the folder watch tells of a path, looks at what is there now and
/// tells the streams what differs. Looking rather than trusting the event is what makes renames, removals of whole
/// folders and a lost notification (a full kernel queue) come out right; it also means that a change undone before
/// it is looked at (a file made and deleted at once) may not be told, and two quick saves may be told as one.
final class FileChangeFeed: Sendable {
    /// What tells one feed from another: the store folder's path and the observed folder.
    private struct Key: Hashable {
        let root: String
        let folder: String
    }

    /// What the feed saw, and its streams.
    private struct State {
        /// The files beneath the observed folder, from the first look on.
        var snapshot = FileSnapshot([:])
        /// Whether the first look and the reports made during it have been looked at; until then reports wait in
        /// `pending`.
        var isReady = false
        /// The paths told of before the feed is ready, in order.
        var pending: [String?] = []
        var streams: [Int: AsyncStream<FileChange>.Continuation] = [:]
        var nextID = 0
    }

    /// The feeds running in this process.
    private static let running = LockedState<[Key: FileChangeFeed]>([:])

    private let key: Key
    private let folder: StoreFolder
    /// The observed folder's names; none for the store folder.
    private let components: [String]
    private let state = LockedState(State())
    /// The folder watch, from the feed's start to the end of its last stream, and whether that end came.
    private let watch = LockedState<(observation: ChangeObservation?, isEnded: Bool)>((nil, false))
    /// Signalled when the first look is done, for the streams that joined meanwhile.
    private let readiness = NSCondition()

    private init(key: Key, folder: StoreFolder, components: [String]) {
        self.key = key
        self.folder = folder
        self.components = components
    }

    /// A stream of the changes beneath `components` of `folder`, joining the feed of that folder or starting it.
    ///
    /// A new feed watches the observed folder before it looks at the files, and the events of that look are looked
    /// at after it; a stream that joins a feed still looking waits for it. So every change made after this returns is
    /// told.
    static func stream(of folder: StoreFolder, in components: [String]) -> AsyncStream<FileChange> {
        let (stream, continuation) = AsyncStream<FileChange>.makeStream(bufferingPolicy: .unbounded)
        let key = Key(root: folder.path, folder: components.joined(separator: "/"))
        let (feed, id, isNew) = running.withLock { running -> (FileChangeFeed, Int, Bool) in
            let existing = running[key]
            let feed = existing ?? FileChangeFeed(key: key, folder: folder, components: components)
            running[key] = feed
            let id = feed.state.withLock { state in
                state.nextID += 1
                state.streams[state.nextID] = continuation
                return state.nextID
            }
            return (feed, id, existing == nil)
        }
        continuation.onTermination = { _ in feed.remove(id) }
        // The first look reads every folder beneath the observed one: outside the lock every feed shares.
        if isNew { feed.start() } else { feed.waitUntilReady() }
        return stream
    }

    /// Returns once the first look and the reports made during it have been looked at.
    private func waitUntilReady() {
        readiness.lock()
        defer { readiness.unlock() }
        while !state.withLock(\.isReady) { readiness.wait() }
    }

    /// Watches the observed folder, looks at the files beneath it, then at what changed meanwhile.
    private func start() {
        // The observed folder, which may not exist yet, at any depth; a sub-folder that is a link is not followed.
        let path = key.folder.isEmpty ? folder.path : folder.path + "/" + key.folder
        let observation = FolderWatch.observe(path, recursive: true, followsLink: key.folder.isEmpty) {
            [weak self] changed in self?.changed(changed)
        }
        let isEnded = watch.withLock { watch in
            watch.observation = observation
            return watch.isEnded
        }
        if isEnded { observation.end() }
        let snapshot = FileSnapshot(folder.fileVersions(under: components))
        state.withLock { $0.snapshot = snapshot }
        while true {
            let pending = state.withLock { state -> [String?] in
                defer { state.pending = [] }
                if state.pending.isEmpty { state.isReady = true }
                return state.pending
            }
            if pending.isEmpty { break }
            for changed in pending { look(at: changed) }
        }
        readiness.lock()
        readiness.broadcast()
        readiness.unlock()
    }

    /// Follows the watch's report of `changed`: kept for after the first look, or looked at now.
    private func changed(_ changed: String?) {
        let waits = state.withLock { state in
            guard !state.isReady else { return false }
            state.pending.append(changed)
            return true
        }
        if !waits { look(at: changed) }
    }

    /// Looks at the path `changed` (relative to the store folder; nil: everything) and tells the streams what
    /// differs from the snapshot.
    private func look(at changed: String?) {
        guard let (path, now) = current(at: changed) else { return }
        state.withLock { state in
            // Only files beneath the observed folder: a file at the folder's own path is not in it.
            let inside = key.folder.isEmpty ? "" : key.folder + "/"
            for change in state.snapshot.replace(at: path, with: now) where change.path.hasPrefix(inside) {
                for stream in state.streams.values { stream.yield(change) }
            }
        }
    }

    /// The path to look at for a report of `changed` (relative to the observed folder; nil: everything), relative to
    /// the store folder, and the versions of the files at and beneath it now; nil when it is a temporary file.
    private func current(at changed: String?) -> (path: String, now: [String: FileVersion])? {
        guard let changed else { return (key.folder, folder.fileVersions(under: components)) }
        // Names as the listings show them: NFC, as the store writes them, and never a temporary file.
        let changedNames = changed.split(separator: "/").map { FileNameEncoding.canonicalForm(of: String($0)) }
        guard let last = changedNames.last, !TemporaryName.isTemporary(last) else { return nil }
        let names = components + changedNames
        let path = names.joined(separator: "/")
        switch folder.entryVersion(at: names) {
        case .file(let version): return (path, [path: version])
        case .folder: return (path, folder.fileVersions(under: names))
        case .nothing: return (path, [:])
        }
    }

    /// Forgets the ended stream numbered `id`, and stops the feed after its last.
    private func remove(_ id: Int) {
        let ended = Self.running.withLock { running -> Bool in
            let isLast = state.withLock { state in
                state.streams[id] = nil
                return state.streams.isEmpty
            }
            guard isLast, running[key] === self else { return false }
            running[key] = nil
            return true
        }
        guard ended else { return }
        watch.withLock { watch -> ChangeObservation? in
            watch.isEnded = true
            return watch.observation
        }?
        .end()
    }
}
