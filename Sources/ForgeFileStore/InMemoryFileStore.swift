public import Foundation
internal import ForgeCore

/// A dictionary-backed ``FileStoring`` for tests and previews: no disk I/O, thread-safe, and faithful.
///
/// Faithful means it behaves as ``DiskFileStore`` does, which the package's behaviour suite checks by
/// running the same tests against both: the same paths are refused with the same
/// ``FileStoreError/invalidPath(path:reason:)``, folders are implicit in the same way (a path cannot be a
/// file and a folder at once, and a folder goes away with its last file), ``list(in:)`` shows the same
/// entries in the same order, and ``totalSize()`` counts the same bytes. Files live as long as the instance.
///
/// ```swift
/// let files = InMemoryFileStore()
/// let service = AvatarService(files: files)
/// try await service.saveAvatar(Data("img".utf8))
/// #expect(files.exists("avatars/current.jpg"))
/// ```
///
/// On its own it never fails the way a disk fails (full, or read-only); ForgeStorageTesting's
/// `InMemoryFileStore(faults:)` makes it fail on cue with the errors ``DiskFileStore`` throws. It tells
/// `A.txt` and `a.txt` apart everywhere, as a case-sensitive volume does.
public final class InMemoryFileStore: Sendable {
    private let state = LockedState(State())
    /// The faults and operation log a test asked for; nil (one check per call) for a plain store.
    let instrument: (any StoreInstrument)?

    /// The files, for each folder the number of files beneath it, and the streams of changes.
    private struct State {
        var files: [String: Data] = [:]
        /// For each folder path (no trailing `/`), the number of files at any depth beneath it.
        ///
        /// A folder exists while its count is positive.
        var folders: [String: Int] = [:]
        var totalSize = 0
        /// The streams of ``changes(in:)``, by number, with the folder each observes.
        var streams: [Int: (folder: String, continuation: AsyncStream<FileChange>.Continuation)] = [:]
        var lastStreamID = 0

        /// Tells the streams that observe `change`'s path of it.
        func tell(_ change: FileChange) {
            for stream in streams.values where stream.folder.isEmpty || change.path.hasPrefix(stream.folder + "/") {
                stream.continuation.yield(change)
            }
        }
    }

    /// Creates an empty store.
    public init() {
        self.instrument = nil
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Ends the streams of changes: no change can reach them any more.
    deinit {
        for stream in state.withLock({ $0.streams.values.map(\.continuation) }) { stream.finish() }
    }

    /// The paths of every stored file, sorted.
    public var paths: [String] {
        state.withLock { Array($0.files.keys) }.sorted()
    }
}

extension InMemoryFileStore {
    /// Reports `operation` on `path` (nil for the whole store) to the instrument, and returns the fault it asks
    /// for.
    ///
    /// An operation fails with it as ``DiskFileStore`` fails (`InjectedFault.fail`): the `FileSystemError` of
    /// the disk call, through the store family's one mapping (`FileStoreError(_:operation:path:)`). A plain
    /// store has no instrument and never fails.
    private func report(_ operation: StoreOperation, _ path: String?) -> InjectedFault? {
        instrument?.begin(operation, target: path)
    }
}

extension InMemoryFileStore: FileStoring {
    /// Saves `data` at `path`.
    ///
    /// - Throws: See ``FileStoring/save(_:to:overwrite:)``.
    public nonisolated(nonsending) func save(_ data: Data, to path: String, overwrite: Bool) async throws {
        let relative = try RelativePath.file(path)
        try report(.write, path)?.fail(.open, path) { FileStoreError($0, operation: .write, path: path) }
        let ancestors = relative.ancestors
        try state.withLock { state in
            if ancestors.contains(where: { state.files[$0] != nil }) {
                throw FileStoreError.writeFailed(path: path, reason: .parentIsFile)
            }
            if state.folders[relative.string] != nil {
                throw FileStoreError.writeFailed(path: path, reason: .isFolder)
            }
            if let old = state.files[relative.string] {
                guard overwrite else { throw FileStoreError.alreadyExists(path: path) }
                state.totalSize -= old.count
                state.tell(.modified(relative.string))
            } else {
                for ancestor in ancestors { state.folders[ancestor, default: 0] += 1 }
                state.tell(.created(relative.string))
            }
            state.files[relative.string] = data
            state.totalSize += data.count
        }
    }

    /// Returns the contents of the file at `path`.
    ///
    /// - Throws: See ``FileStoring/load(_:)``.
    public nonisolated(nonsending) func load(_ path: String) async throws -> Data {
        let relative = try RelativePath.file(path)
        // Damaged bytes read as a torn copy, as on disk; any other fault fails the read.
        let fault = report(.read, path)
        let isCorrupt = fault?.isCorruptData == true
        if !isCorrupt { try fault?.fail(.open, path) { FileStoreError($0, operation: .read, path: path) } }
        return try state.withLock { state in
            if let data = state.files[relative.string] { return isCorrupt ? data.prefix(data.count / 2) : data }
            if state.folders[relative.string] != nil { throw FileStoreError.readFailed(path: path, reason: .isFolder) }
            throw FileStoreError.notFound(path: path)
        }
    }

    /// Returns true when a file is stored at `path`.
    public func exists(_ path: String) -> Bool {
        guard let relative = try? RelativePath.file(path) else { return false }
        if report(.exists, path)?.hidesItems == true { return false }
        return state.withLock { $0.files[relative.string] != nil }
    }

    /// Deletes the file at `path`, and the folders this leaves empty.
    ///
    /// - Throws: See ``FileStoring/delete(_:)``.
    public nonisolated(nonsending) func delete(_ path: String) async throws {
        let relative = try RelativePath.file(path)
        try report(.delete, path)?.fail(.remove, path) { FileStoreError($0, operation: .delete, path: path) }
        let ancestors = relative.ancestors
        try state.withLock { state in
            guard let old = state.files.removeValue(forKey: relative.string) else {
                if state.folders[relative.string] != nil {
                    throw FileStoreError.deleteFailed(path: path, reason: .isFolder)
                }
                throw FileStoreError.notFound(path: path)
            }
            state.totalSize -= old.count
            for ancestor in ancestors {
                let remaining = (state.folders[ancestor] ?? 1) - 1
                state.folders[ancestor] = remaining > 0 ? remaining : nil
            }
            state.tell(.deleted(relative.string))
        }
    }

    /// Returns the files and sub-folders directly in `folder`, sorted; sub-folders end in `/`.
    ///
    /// - Throws: See ``FileStoring/list(in:)``.
    public nonisolated(nonsending) func list(in folder: String) async throws -> [String] {
        let relative = try RelativePath.folder(folder)
        try report(.list, folder)?.fail(.list, folder) { FileStoreError($0, operation: .list, path: folder) }
        let prefix = relative.isRoot ? "" : relative.string + "/"
        let prefixLength = prefix.utf8.count
        let paths = state.withLock { Array($0.files.keys) }
        var entries = Set<String>()
        for path in paths where path.utf8.starts(with: prefix.utf8) {
            let rest = path.utf8.dropFirst(prefixLength)
            if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
                entries.insert(String(decoding: path.utf8[..<slash], as: UTF8.self) + "/")
            } else {
                entries.insert(path)
            }
        }
        return entries.sorted()
    }

    /// Deletes every file; the streams of changes are told of each, in path order.
    public nonisolated(nonsending) func deleteAll() async throws {
        try report(.deleteAll, nil)?.fail(.remove, "") { FileStoreError($0, operation: .deleteAll, path: "") }
        state.withLock { state in
            let deleted = state.files.keys.sorted()
            state.files = [:]
            state.folders = [:]
            state.totalSize = 0
            for path in deleted { state.tell(.deleted(path)) }
        }
    }

    /// The sum of the sizes of the stored files.
    public nonisolated(nonsending) func totalSize() async throws -> Int {
        try report(.list, nil)?.fail(.list, "") { FileStoreError($0, operation: .list, path: "") }
        return state.withLock { $0.totalSize }
    }
}

extension InMemoryFileStore: FileChangeObserving {
    /// A stream of the changes made through this instance to the files in `folder` and beneath it, each as it is
    /// made: see ``FileChangeObserving/changes(in:)``.
    ///
    /// Every change is told, in the order the calls made them; the stream ends when the consuming task is cancelled
    /// or the store is released.
    ///
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        let relative = try RelativePath.folder(folder)
        let (stream, continuation) = AsyncStream<FileChange>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            state.lastStreamID += 1
            state.streams[state.lastStreamID] = (relative.string, continuation)
            return state.lastStreamID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in state.streams[id] = nil }
        }
        return stream
    }
}
