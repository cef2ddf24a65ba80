public import Foundation
internal import ForgeCore

/// A file store kept within a budget of bytes (and, optionally, of files) by removing the least recently used files:
/// a cache, on any store built on ``FileBackend`` (the disk store, a SQLite file store, the in-memory twin).
///
/// Make one with ``FileBackend/boundedCache(maxBytes:maxFiles:)``:
///
/// ```swift
/// let thumbnails = DiskFileStore(directory: .caches, namespace: "thumbnails").boundedCache(maxBytes: 50_000_000)
/// try await thumbnails.save(image, to: "photos/42.jpg")   // removes the least recently used first, when it must
/// ```
///
/// A save that would take the store over the budget first removes the files used least recently (saved or loaded
/// longest ago) until the new file fits; once it returns, ``FileStoring/totalSize()`` is within the budget (when no
/// other save runs beside it). A file larger than the whole budget is refused with
/// ``FileStoreError/writeFailed(path:reason:)`` and `FailureReason.outOfSpace`, and nothing is removed for it.
///
/// The policy is written once, above the store's contract, so every store evicts the same files for the same calls:
/// the in-memory twin is a faithful cache in tests. Recency is this instance's: it starts, at the first call, from the
/// files' modification dates (oldest first), and follows each save and load made through it. Files other processes
/// write into the same storage are counted when this instance next starts. A removed file is gone for good, as a
/// cache's files are: a save that fails after removing files to make room does not bring them back.
public final class BoundedFileStore<Base: FileBackend>: Sendable {
    /// The store the files are kept in.
    public let base: Base
    /// The most bytes the files may hold together.
    public let maxBytes: Int
    /// The most files the store may hold, or nil for no limit.
    public let maxFiles: Int?
    /// The files this instance knows, by how recently each was used; nil until the first call reads the store.
    private let recency = LockedState<FileRecency?>(nil)

    /// Keeps `base` within `maxBytes` bytes and, when given, `maxFiles` files.
    init(base: Base, maxBytes: Int, maxFiles: Int?) {
        self.base = base
        self.maxBytes = maxBytes
        self.maxFiles = maxFiles
    }

    /// The files this instance knows, read from the store at the first call.
    private nonisolated(nonsending) func knownFiles() async throws -> FileRecency {
        if let known = recency.withLock({ $0 }) { return known }
        let files = try await base.allFiles()
        return recency.withLock { known in
            if let known { return known }
            let read = FileRecency(files)
            known = read
            return read
        }
    }

    /// Notes that the file at `path`, of `size` bytes, was used now.
    private func use(_ path: String, size: Int) {
        recency.withLock { $0?.use(path, size: size) }
    }
}

extension BoundedFileStore: FileStoring, FileBackend {
    /// The contents of the file at `path`, noted as used now.
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        _ = try await knownFiles()
        guard let data = try await base.contents(at: path) else {
            recency.withLock { $0?.forget(path.string) }
            return nil
        }
        use(path.string, size: data.count)
        return data
    }

    /// Removes the least recently used files until `data` fits the budget, then stores it at `path`.
    ///
    /// - Throws: ``FileStoreError/writeFailed(path:reason:)`` with `FailureReason.outOfSpace` when `data` alone is
    ///   larger than the budget or the budget holds no file (nothing is removed),
    ///   ``FileStoreError/alreadyExists(path:)`` when `replacing` is false and a file is there (nothing is removed),
    ///   or what the store throws for the write or a removal.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        guard data.count <= maxBytes, maxFiles.map({ $0 > 0 }) ?? true else {
            throw FileStoreError.writeFailed(path: path.string, reason: .outOfSpace)
        }
        // A save that cannot replace fails before anything is removed to make room for it.
        if !replacing, base.hasFile(at: path) { throw FileStoreError.alreadyExists(path: path.string) }
        _ = try await knownFiles()
        let victims = recency.withLock { known in
            known?.leastRecentlyUsed(makingRoomFor: data.count, at: path.string, maxBytes: maxBytes, maxFiles: maxFiles)
                ?? []
        }
        for victim in victims {
            _ = try await base.removeFile(at: StoredFilePath(validating: victim))
            recency.withLock { $0?.forget(victim) }
        }
        try await base.write(data, at: path, replacing: replacing)
        use(path.string, size: data.count)
    }

    /// Removes the file at `path`.
    public nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        _ = try await knownFiles()
        let removed = try await base.removeFile(at: path)
        recency.withLock { $0?.forget(path.string) }
        return removed
    }

    /// Whether a file is stored at `path`; not a use of it.
    public func hasFile(at path: StoredFilePath) -> Bool {
        base.hasFile(at: path)
    }

    /// The size and modification date of the file at `path`, as the store reports them.
    public func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        try base.storedFileInfo(at: path)
    }

    /// The names of the files and folders directly in `folder`.
    public nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try await base.entryNames(in: folder)
    }

    /// Removes every file.
    public nonisolated(nonsending) func removeAll() async throws {
        try await base.removeAll()
        recency.withLock { $0 = FileRecency([]) }
    }

    /// The sum of the sizes of the stored files, as the store counts them.
    public nonisolated(nonsending) func storedSize() async throws -> Int {
        try await base.storedSize()
    }

    /// Every file, as the store lists them.
    public nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo] {
        try await base.allFiles()
    }
}

extension BoundedFileStore: AsyncFileStoring {}

extension FileBackend {
    /// This store, kept within `maxBytes` bytes (and `maxFiles` files, when given) by removing the least recently
    /// used files before a save that would go over: see ``BoundedFileStore``.
    ///
    /// - Parameters:
    ///   - maxBytes: The most bytes the files may hold together.
    ///   - maxFiles: The most files the store may hold, or nil for no limit.
    /// - Returns: The cache, which keeps its files in this store.
    public func boundedCache(maxBytes: Int, maxFiles: Int? = nil) -> BoundedFileStore<Self> {
        BoundedFileStore(base: self, maxBytes: maxBytes, maxFiles: maxFiles)
    }
}
