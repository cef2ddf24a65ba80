public import Foundation
internal import ForgeCore

/// A dictionary-backed ``FileStoring`` for tests and previews: no disk I/O, thread-safe, and faithful.
///
/// Faithful means it behaves as ``DiskFileStore`` does, which the package's behaviour suite checks by
/// running the same tests against both. Both are built on ``FileBackend``, so the paths they refuse, the errors
/// they throw and the order they list in are one code; below it, folders are implicit in the same way (a path
/// cannot be a file and a folder at once, and a folder goes away with its last file), ``FileStoring/totalSize()`` counts
/// the same bytes, and each file has the modification date a file system gives it (the time of the write that stored
/// it), so ``FileBackend/allFiles()`` and ``FileBackend/fileInfo(at:)`` report the same paths, sizes and dates. Files
/// live as long as the instance.
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
    let state = LockedState(State())
    /// Where a test's faults enter; lets every call through for a plain store.
    let faults: FileFaultPoint

    /// The files, for each folder the number of files beneath it, and the streams of changes.
    struct State {
        /// Each file's bytes and the time it was last written, by path.
        var files: [String: File] = [:]
        /// For each folder path (no trailing `/`), the number of files at any depth beneath it.
        ///
        /// A folder exists while its count is positive.
        var folders: [String: Int] = [:]
        var totalSize = 0
        /// The streams of ``changes(in:)``, by number, with the folder each observes.
        var streams: [Int: (folder: String, continuation: AsyncStream<FileChange>.Continuation)] = [:]
        var lastStreamID = 0

        /// A stored file.
        struct File {
            var data: Data
            /// When the write that stored `data` ran, by the system's clock, as a file system dates a file.
            var modificationDate: Date
        }

        /// Stores `data` at `path`, dated now, and returns the change to tell.
        ///
        /// - Throws: ``FileStoreError/alreadyExists(path:)``, or ``FileStoreError/writeFailed(path:reason:)`` when
        ///   `path` is a folder or a folder on its way is a file; nothing is changed then.
        mutating func write(_ data: Data, at path: StoredFilePath, replacing: Bool) throws -> FileChange {
            let key = path.string
            let ancestors = path.enclosingFolders
            if ancestors.contains(where: { files[$0] != nil }) {
                throw FileStoreError.writeFailed(path: key, reason: .parentIsFile)
            }
            if folders[key] != nil { throw FileStoreError.writeFailed(path: key, reason: .isFolder) }
            let change: FileChange
            if let old = files[key] {
                guard replacing else { throw FileStoreError.alreadyExists(path: key) }
                totalSize -= old.data.count
                change = .modified(key)
            } else {
                for ancestor in ancestors { folders[ancestor, default: 0] += 1 }
                change = .created(key)
            }
            files[key] = File(data: data, modificationDate: Date())
            totalSize += data.count
            return change
        }

        /// Removes the file at `path` and returns the change to tell, or nil when no file is there.
        ///
        /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` when `path` is a folder.
        mutating func removeFile(at path: StoredFilePath) throws -> FileChange? {
            let key = path.string
            guard let old = files.removeValue(forKey: key) else {
                if folders[key] != nil { throw FileStoreError.deleteFailed(path: key, reason: .isFolder) }
                return nil
            }
            totalSize -= old.data.count
            for ancestor in path.enclosingFolders {
                let remaining = (folders[ancestor] ?? 1) - 1
                folders[ancestor] = remaining > 0 ? remaining : nil
            }
            return .deleted(key)
        }

        /// Tells the streams that observe `change`'s path of it.
        func tell(_ change: FileChange) {
            for stream in streams.values where stream.folder.isEmpty || change.path.hasPrefix(stream.folder + "/") {
                stream.continuation.yield(change)
            }
        }
    }

    /// Creates an empty store.
    public init() {
        self.faults = FileFaultPoint(nil)
    }

    /// Creates an empty store that reports every operation to `instrument` (ForgeStorageTesting's faults and
    /// operation log).
    package init(instrument: (any StoreInstrument)?) {
        self.faults = FileFaultPoint(instrument)
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

extension InMemoryFileStore: FileStoring, FileBackend {
    /// The contents of the file at `path`, or nil.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when `path` is a folder or a test's fault fails the
    ///   read; a fault that damages data returns the first half of the file, as a torn copy on disk would read.
    public func contents(at path: StoredFilePath) throws -> Data? {
        try faults.intercept(.read(path)) {
            try state.withLock { state in
                if let data = state.files[path.string]?.data { return data }
                if state.folders[path.string] != nil {
                    throw FileStoreError.readFailed(path: path.string, reason: .isFolder)
                }
                return nil
            }
        }
    }

    /// Stores `data` at `path`, dated now, and tells the streams of changes.
    ///
    /// - Throws: ``FileStoreError/alreadyExists(path:)``, or ``FileStoreError/writeFailed(path:reason:)`` when `path`
    ///   is a folder, a folder on its way is a file, or a test's fault fails the write.
    public func write(_ data: Data, at path: StoredFilePath, replacing: Bool) throws {
        _ = try faults.begin(.write, path.string)
        try state.withLock { state in
            let change = try state.write(data, at: path, replacing: replacing)
            state.tell(change)
        }
    }

    /// Removes the file at `path`, and tells the streams of changes; false when there is none.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` when `path` is a folder or a test's fault fails the
    ///   removal.
    public func removeFile(at path: StoredFilePath) throws -> Bool {
        _ = try faults.begin(.delete, path.string)
        return try state.withLock { state in
            guard let change = try state.removeFile(at: path) else { return false }
            state.tell(change)
            return true
        }
    }

    /// Whether a file is stored at `path`; false when a test's fault hides it.
    public func hasFile(at path: StoredFilePath) -> Bool {
        faults.check(.exists(path.string)) { state.withLock { $0.files[path.string] != nil } }
    }

    /// The size of the file at `path` and the time it was last written; nil when none is stored there, and when a
    /// test's fault hides it (as ``hasFile(at:)`` answers false).
    public func storedFileInfo(at path: StoredFilePath) -> StoredFileInfo? {
        if faults.hides(path.string) { return nil }
        guard let file = state.withLock({ $0.files[path.string] }) else { return nil }
        return StoredFileInfo(path: path.string, size: file.data.count, modificationDate: file.modificationDate)
    }

    /// The names of the files and sub-folders directly in `folder`; sub-folders end in `/`.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` when a test's fault fails the listing.
    public func entryNames(in folder: StoredFilePath) throws -> [String] {
        let key = folder.string
        _ = try faults.begin(.list, key)
        let prefix = key.isEmpty ? "" : key + "/"
        let paths = state.withLock { Array($0.files.keys) }
        var names = Set<String>()
        for path in paths where path.utf8.starts(with: prefix.utf8) {
            let rest = path.utf8.dropFirst(prefix.utf8.count)
            if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
                names.insert(String(decoding: rest[..<slash], as: UTF8.self) + "/")
            } else {
                names.insert(String(decoding: rest, as: UTF8.self))
            }
        }
        return Array(names)
    }

    /// Removes every file; the streams of changes are told of each, in path order.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` when a test's fault fails it.
    public func removeAll() throws {
        _ = try faults.begin(.deleteAll, nil)
        state.withLock { state in
            let deleted = state.files.keys.sorted()
            state.files = [:]
            state.folders = [:]
            state.totalSize = 0
            for path in deleted { state.tell(.deleted(path)) }
        }
    }

    /// The sum of the sizes of the stored files.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` when a test's fault fails it.
    public func storedSize() throws -> Int {
        _ = try faults.begin(.list, nil)
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
