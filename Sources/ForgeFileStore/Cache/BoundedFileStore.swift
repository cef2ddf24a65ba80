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
/// longest ago) until the new file fits, so ``FileStoring/totalSize()`` stays within the budget, with saves running at
/// once too. A save that cannot succeed fails before anything is removed: a file larger than the whole budget
/// (``FileStoreError/writeFailed(path:reason:)`` with `FailureReason.outOfSpace`), a path that is a folder or has a
/// file on its way.
///
/// Calls that change one path (saves, deletes, and the removal of a file to make room) land one at a time, in the
/// order they were made, and ``FileStoring/deleteAll()`` waits for the changes in progress and lands alone: two saves
/// of one path at once store the later one, and a save made before a `deleteAll()` is removed by it. The cache counts
/// each file's bytes from the moment its save makes room (the larger of its old and new sizes, until the write
/// lands), and a file chosen to make room until it is removed; a load only marks a file as used, so it never brings
/// back a file chosen for removal. Room that another save in progress holds is not given away: when only such room
/// is left, a save fails with `outOfSpace` rather than wait. Waiting for its turn ignores cancellation: a call made
/// in a task that is cancelled meanwhile still waits, then runs, so that it lands in the order it was made.
///
/// The policy is written once, above the store's contract, so every store evicts the same files for the same calls:
/// the in-memory twin is a faithful cache in tests. Recency is this instance's: it starts, at the first save, from the
/// files' modification dates (oldest first; files of equal dates by path, and a disk dates files no finer than its
/// clock, so after a restart the twin and the disk may differ for files saved in the same tick), and follows each save
/// and load made through it. Files other processes write into the same storage are counted when this instance next
/// starts, and files removed by them when a load or an eviction finds them gone. A removed file is gone for good, as a
/// cache's files are: a save that fails after removing files to make room does not bring them back.
public final class BoundedFileStore<Base: FileBackend>: Sendable {
    /// The store the files are kept in.
    public let base: Base
    /// The most bytes the files may hold together.
    public let maxBytes: Int
    /// The most files the store may hold, or nil for no limit.
    public let maxFiles: Int?
    /// The files this instance knows, by how recently each was used (nil until the first save reads the store), and
    /// the deletes made while it lists them.
    private let count = LockedState(CacheCount())
    /// The order in which calls change the files.
    package let turns = CacheTurns()

    /// Keeps `base` within `maxBytes` bytes and, when given, `maxFiles` files.
    init(base: Base, maxBytes: Int, maxFiles: Int?) {
        precondition(maxBytes >= 0 && (maxFiles ?? 0) >= 0, "a cache's budget is never negative")
        self.base = base
        self.maxBytes = maxBytes
        self.maxFiles = maxFiles
    }

    /// The files this instance knows, read from the store at the first call.
    private nonisolated(nonsending) func knownFiles() async throws -> FileRecency {
        let known = count.withLock { count -> FileRecency? in
            if let known = count.known { return known }
            count.beginListing()
            return nil
        }
        if let known { return known }
        let files: [StoredFileInfo]
        do {
            files = try await base.allFiles()
        } catch {
            count.withLock { $0.endListing() }
            throw error
        }
        return count.withLock { $0.finishListing(reading: files) }
    }

    /// The bytes and files this instance counts, or nil before its first save: for tests that the count matches the
    /// store once the calls have returned.
    package var counted: (bytes: Int, files: Int)? {
        count.withLock { count in count.known.map { ($0.totalSize, $0.fileCount) } }
    }
}

extension BoundedFileStore: FileStoring, FileBackend {
    /// The contents of the file at `path`, noted as used now (once the cache knows its files: from its first save).
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        let useBefore = count.withLock { $0.recency?.lastUse ?? 0 }
        guard let data = try await base.contents(at: path) else {
            count.withLock { $0.recency?.forgetMissing(path.string, readSince: useBefore) }
            return nil
        }
        count.withLock { $0.recency?.use(path.string) }
        return data
    }

    /// Removes the least recently used files until `data` fits the budget, then stores it at `path`.
    ///
    /// A save that cannot succeed (too large, no file allowed, a file already there that it may not replace, a folder
    /// at `path`, a file on its way) fails before anything is removed. It waits for the calls on `path` made before it
    /// and for a ``removeAll()`` in progress; the new file's bytes are counted from the moment its room is made, so
    /// saves that run at once never make room for more than the budget together.
    ///
    /// - Throws: ``FileStoreError/writeFailed(path:reason:)`` with `FailureReason.outOfSpace` when `data` alone is
    ///   larger than the budget, the budget holds no file, or saves in progress hold the room it needs;
    ///   ``FileStoreError/alreadyExists(path:)`` when `replacing` is false and a file is there; `writeFailed` with
    ///   `isFolder` or `parentIsFile`; or `writeFailed` with the reason the store could not list or remove a file, or
    ///   what it throws for the write.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        let key = path.string
        guard data.count <= maxBytes, maxFiles.map({ $0 > 0 }) ?? true else {
            throw FileStoreError.writeFailed(path: key, reason: .outOfSpace)
        }
        await turns.take(key)
        defer { turns.release(key) }
        try await refuseBeforeMakingRoom(at: path, replacing: replacing)
        do {
            _ = try await knownFiles()
        } catch {
            throw Self.writeFailed(key, error)
        }
        let victims = count.withLock { count in
            count.recency?.reserve(data.count, at: key, maxBytes: maxBytes, maxFiles: maxFiles)
        }
        guard let victims else { throw FileStoreError.writeFailed(path: key, reason: .outOfSpace) }
        var wrote = false
        defer { count.withLock { $0.recency?.finishSaving(key, wrote: wrote) } }
        try await remove(victims, makingRoomFor: key)
        do {
            try await base.write(data, at: path, replacing: replacing)
            wrote = true
        } catch {
            // A write may fail with its file in place (a `.flushed` write whose folder's flush failed): a file of the
            // new size there is counted as written (were it the old one, of that size, the count is the same), any
            // other as before, so that the count never falls below what the store holds.
            wrote = (try? base.storedFileInfo(at: path))?.size == data.count
            throw error
        }
    }

    /// Removes `victims`, each in its turn, to make room for a save of `path`.
    ///
    /// A victim saved again since it was chosen is kept (the file there is newer than the one chosen). A victim whose
    /// path is a folder now is gone already (deleted, then a save made the folder). A removal that fails fails the save,
    /// once the other victims are removed in their turns, as a cache's files may be: the victim it could not remove is
    /// counted as before, and each other one as its own removal found it.
    private nonisolated(nonsending) func remove(_ victims: [FileRecency.Victim], makingRoomFor path: String)
        async throws
    {
        var failure: (any Error)?
        for victim in victims {
            await turns.takeNested(victim.path)
            defer { turns.release(victim.path) }
            guard count.withLock({ $0.recency?.mayRemove(victim) ?? false }) else {
                count.withLock { $0.recency?.finishRemoving(victim, failed: false) }
                continue
            }
            do {
                _ = try await base.removeFile(at: StoredFilePath(validating: victim.path))
                count.withLock { $0.recency?.finishRemoving(victim, failed: false) }
            } catch let error as FileStoreError where error.reason == .isFolder {
                count.withLock { $0.recency?.finishRemoving(victim, failed: false) }
            } catch {
                count.withLock { $0.recency?.finishRemoving(victim, failed: true) }
                failure = failure ?? error
            }
        }
        if let failure { throw Self.writeFailed(path, failure) }
    }

    /// The error of a save of `path` that failed as the cache listed or removed files for it: `writeFailed` naming
    /// `path`, with the store's reason.
    private static func writeFailed(_ path: String, _ error: any Error) -> FileStoreError {
        .writeFailed(path: path, reason: (error as? FileStoreError)?.reason ?? .other("\(error)"))
    }

    /// Throws what a write of `path` would fail with for a reason removing files cannot change: a file there that it
    /// may not replace, a folder at `path`, a file on its way; a listing that fails is `writeFailed` naming `path`.
    private nonisolated(nonsending) func refuseBeforeMakingRoom(at path: StoredFilePath, replacing: Bool) async throws {
        if base.hasFile(at: path) {
            guard replacing else { throw FileStoreError.alreadyExists(path: path.string) }
            return
        }
        for folder in path.enclosingFolders where base.hasFile(at: try StoredFilePath(validating: folder)) {
            throw FileStoreError.writeFailed(path: path.string, reason: .parentIsFile)
        }
        let entries: [String]
        do {
            entries = try await base.entryNames(in: StoredFilePath(validatingFolder: path.string))
        } catch {
            throw Self.writeFailed(path.string, error)
        }
        if !entries.isEmpty { throw FileStoreError.writeFailed(path: path.string, reason: .isFolder) }
    }

    /// Removes the file at `path`, after the calls on `path` made before it.
    public nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        await turns.take(path.string)
        defer { turns.release(path.string) }
        let removed = try await base.removeFile(at: path)
        count.withLock { $0.deleted(path.string) }
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

    /// Removes every file, once the saves and removals in progress have landed; calls made meanwhile wait for it.
    public nonisolated(nonsending) func removeAll() async throws {
        await turns.takeEveryFile()
        defer { turns.release(nil) }
        do {
            try await base.removeAll()
        } catch {
            // Some files may be gone: the next save counts the store again.
            count.withLock { $0.recency?.needListing() }
            throw error
        }
        // The uses number on: a load that started before and found nothing compares them to keep a file saved since.
        count.withLock { $0.recency = FileRecency([], after: $0.recency?.lastUse ?? 0) }
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
    ///   - maxBytes: The most bytes the files may hold together; not negative.
    ///   - maxFiles: The most files the store may hold, or nil for no limit; not negative.
    /// - Returns: The cache, which keeps its files in this store.
    public func boundedCache(maxBytes: Int, maxFiles: Int? = nil) -> BoundedFileStore<Self> {
        BoundedFileStore(base: self, maxBytes: maxBytes, maxFiles: maxFiles)
    }
}
