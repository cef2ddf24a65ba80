public import Foundation
internal import ForgeCore

/// A ``FileStoring`` that keeps each file as a file of its own under `{directory}/{namespace}/`.
///
/// The store is a stateless struct: every call does its own file I/O with raw POSIX calls, so any number
/// of instances, in any number of tasks or processes, see the same files, and a save or load costs what
/// the system calls cost.
///
/// ```swift
/// let files = DiskFileStore(directory: .documents, namespace: "taskflow")
/// try await files.save(pdf, to: "exports/2025-06.pdf")
/// let names = try await files.list(in: "exports")   // ["exports/2025-06.pdf"]
/// ```
///
/// ## Safety
/// A path is checked before any I/O (see ``FileStoring``), and below the namespace folder every folder and
/// file is reached from the namespace folder's descriptor without following symbolic links: in one call that
/// refuses a link anywhere on the way (`openat2` on Linux 5.6 and later, `O_NOFOLLOW_ANY` on Apple platforms),
/// else one name at a time (`openat` with `O_NOFOLLOW`). A symbolic link planted in the folder, as a file or as a folder on
/// the way, makes the call fail with `FailureReason.symbolicLink`: nothing outside the namespace
/// folder is ever read, written or deleted through it. ``FileStoring/deleteAll()`` removes such a link itself, never
/// what it leads to. The namespace folder itself and the base folder are opened by path, so they may be
/// links (a symlinked home folder works).
///
/// ## Atomicity and durability
/// A save writes a temporary file in the target's folder and renames it over the target, so a reader, or a
/// process that crashes mid-save, finds the old content or the new, never a torn or empty file; a failed
/// save leaves no temporary file. `overwrite: false` hard-links the temporary file to the target, which
/// fails if anything is there: no check-then-write race. Temporary files are hidden (`.name.forge-tmp-…`)
/// and never listed, counted or reported as existing. With `Durability.atomic` (the default) saves are
/// not flushed, so a power loss may lose the most recent ones; with `Durability.flushed` each save
/// flushes the file before the rename and the folder after. The first store created for a folder in a process
/// removes, in the background, the temporary files that crashed processes left in any of its folders, the folders
/// they left empty, and a ``FileStoring/deleteAll()`` that a crash interrupted.
///
/// ## Names on disk
/// Files keep the names of their path (in Unicode NFC), so the folder is browsable. A file or folder that
/// another program named in another spelling (NFD, as an HFS+ volume or a copy from macOS leaves it) is
/// listed in NFC and loaded, checked, replaced and deleted through that NFC path; a save replaces it rather
/// than adding a second spelling beside it. On a case-insensitive
/// volume (the macOS default) `A.txt` and `a.txt` are one file, unlike in ``InMemoryFileStore``. The
/// namespace is escaped the way `DiskKVStore` escapes its namespace, so it never leaves `directory`; give
/// file stores and key-value stores different namespaces.
public struct DiskFileStore: Sendable {
    /// The base folder the namespace folder lives in.
    public let directory: StorageDirectory
    /// The name of this store's folder inside ``directory``.
    public let namespace: String
    /// The Data Protection level applied to the folders and each file; no effect on Linux.
    public let fileProtection: FileProtection
    /// Whether each save is flushed to the device: see `Durability`.
    public let durability: Durability
    /// The folder that holds this store's files: ``directory``, then the escaped ``namespace``.
    public let folderURL: URL

    /// The folder, through which every load, save and delete goes.
    let folder: StoreFolder

    /// Creates a store for the files in `{directory}/{namespace}/`.
    ///
    /// The folder is created on the first save. The first store for a folder in a process starts removing, in
    /// the background, the temporary files that processes which crashed while saving left in the folder and its
    /// sub-folders (temporary files of running processes are kept), and the folders they left empty. That reads
    /// every folder of the store, so it stays off the path of the store's first call; the files it removes are
    /// never listed, counted or read meanwhile.
    ///
    /// - Parameters:
    ///   - directory: The base folder. Defaults to `StorageDirectory.applicationSupport`.
    ///   - namespace: The folder name for this store's files. Any string: it is escaped, so namespaces never
    ///     share files and never leave `directory`.
    ///   - fileProtection: The Data Protection level on Apple platforms; no effect on Linux.
    ///   - durability: Whether each save is flushed to the device before it returns. Defaults to
    ///     `Durability.atomic`: atomic, not flushed.
    public init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
        durability: Durability = .atomic
    ) {
        self.init(directory: directory, namespace: namespace, fileProtection: fileProtection, durability: durability) {
            _ in
        }
    }

    /// The store, with its folder's options adjusted by `configure`: the tests open paths both ways with it.
    init(
        directory: StorageDirectory,
        namespace: String,
        fileProtection: FileProtection,
        durability: Durability,
        configure: (inout StoreFolder.Options) -> Void
    ) {
        self.directory = directory
        self.namespace = namespace
        self.fileProtection = fileProtection
        self.durability = durability
        self.folder = StoreFolder(
            directory: directory,
            namespace: namespace,
            protection: fileProtection,
            durability: durability,
            configure: configure
        )
        self.folderURL = folder.url
        folder.removeLeftoversOnce()
    }

    /// The URL of the file at `path`, for APIs that take a URL (sharing, previews).
    ///
    /// The URL is not checked for symbolic links: read and write through the store.
    ///
    /// - Parameter path: The relative path of the file.
    /// - Returns: The file URL inside ``folderURL``; the file need not exist.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)``.
    public func fileURL(for path: String) throws -> URL {
        let relative = try RelativePath.file(path)
        return folderURL.appendingPathComponent(relative.string, isDirectory: false)
    }
}

extension DiskFileStore: FileStoring, FileBackend {
    /// The contents of the file at `path`, or nil when none is stored there.
    ///
    /// Runs on the caller's executor, so a small load from the main actor costs its system calls and no switch of
    /// threads; a file larger than ``largeFileSize`` is read on the concurrent pool instead (it is opened again
    /// there), so that it never holds the caller's actor while it is read.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)``.
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        do {
            if let data = try folder.openForReading(at: path.relative).readAll(ifAtMost: Self.largeFileSize) {
                return data
            }
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw FileStoreError(error, operation: .read, path: path.string)
        }
        return try await Self.loadOffCaller(path.relative, in: folder)
    }

    /// Writes `data` at `path` atomically, creating the folders on the way.
    ///
    /// Runs on the caller's executor, so a small save from the main actor costs its system calls and no switch of
    /// threads; data larger than ``largeFileSize`` is written on the concurrent pool instead, so that it never holds
    /// the caller's actor while it is written.
    ///
    /// - Throws: ``FileStoreError/alreadyExists(path:)`` or ``FileStoreError/writeFailed(path:reason:)``.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        if data.count > Self.largeFileSize {
            return try await Self.writeOffCaller(data, at: path.relative, in: folder, replacing: replacing)
        }
        try Self.write(data, at: path.relative, in: folder, replacing: replacing)
    }

    /// Removes the file at `path`, and the folders this leaves empty; false when none is stored there.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)``.
    public func removeFile(at path: StoredFilePath) throws -> Bool {
        do {
            try folder.remove(path.relative.name, in: path.relative.folders, regularFilesOnly: true)
            return true
        } catch  where error.isNotFound {
            return false
        } catch {
            throw FileStoreError(error, operation: .delete, path: path.string)
        }
    }

    /// Whether a regular file is stored at `path`.
    public func hasFile(at path: StoredFilePath) -> Bool {
        (try? folder.status(of: path.relative.name, in: path.relative.folders))?.kind == .file
    }

    /// The size and modification time of the regular file at `path`, from one `fstatat` that does not follow a
    /// symbolic link; nil when none is stored there.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when the status cannot be read (the folder may not be
    ///   looked at, the device fails): a listing never leaves out a file it cannot see.
    public func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        let status: FileStatus?
        do {
            status = try folder.status(of: path.relative.name, in: path.relative.folders)
        } catch  where error.isNotFound {
            return nil
        } catch {
            // A file whose status cannot be read is not missing: a listing that left it out would let a cache count
            // less than the store holds.
            throw FileStoreError(error, operation: .read, path: path.string)
        }
        guard let status, status.kind == .file else { return nil }
        return StoredFileInfo(path: path.string, size: status.size, modificationDate: status.modificationDate)
    }

    /// The names of the files and sub-folders directly in `folder`, in NFC; sub-folders end in `/`.
    ///
    /// Temporary files, symbolic links, other kinds of file and names no path can name are left out.
    ///
    /// One `readdir` pass over the folder, with no `stat` per entry on file systems that report each
    /// entry's kind.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)``.
    public func entryNames(in folder: StoredFilePath) throws -> [String] {
        let entries: [FolderEntry]
        do {
            entries = try self.folder.list(in: folder.relative.components[...])
        } catch {
            throw FileStoreError(error, operation: .list, path: folder.string)
        }
        var names: [String] = []
        names.reserveCapacity(entries.count)
        for entry in entries {
            switch entry.kind {
            case .file: names.append(entry.name)
            case .folder: names.append(entry.name + "/")
            case .symbolicLink, .other: continue
            }
        }
        return names
    }

    /// Removes the namespace folder and everything in it, at once; other namespaces are untouched.
    ///
    /// The folder is first renamed to a hidden name, so readers see all of it vanish at once. The removal runs on the
    /// concurrent pool, never on the caller's actor: its cost grows with the store.
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` with an empty path.
    @concurrent public func removeAll() async throws {
        do {
            try folder.removeAll()
        } catch {
            throw FileStoreError(error, operation: .deleteAll, path: "")
        }
    }

    /// The sum of the sizes of the store's files, from one `readdir` pass per folder and an `fstatat` per
    /// file.
    ///
    /// Runs on the concurrent pool, never on the caller's actor: its cost grows with the store.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` with an empty path.
    @concurrent public func storedSize() async throws -> Int {
        do {
            return try folder.totalSize()
        } catch {
            throw FileStoreError(error, operation: .list, path: "")
        }
    }

    /// Every file of the store with its size and modification time, sorted by path: one `readdir` pass per folder
    /// and an `fstatat` per file, as ``FileBackend/allFiles()`` walks any store.
    ///
    /// Runs on the concurrent pool, never on the caller's actor: its cost grows with the store.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` naming the folder that could not be listed.
    @concurrent public func allFiles() async throws -> [StoredFileInfo] {
        try await walkedFiles()
    }
}

// MARK: Large files

extension DiskFileStore {
    /// The size, in bytes, above which ``contents(at:)`` and ``write(_:at:replacing:)`` (so ``FileStoring/load(_:)`` and
    /// ``FileStoring/save(_:to:overwrite:)``) leave the caller's executor for the concurrent pool: 1 MiB.
    ///
    /// Below it, switching threads twice costs more than the I/O (tens of microseconds from the main actor against a
    /// few for a small file); above it, the copy takes long enough to hold up an app's main actor, so it runs
    /// elsewhere.
    public static let largeFileSize = 1 << 20

    /// Writes `data` at `relative` atomically, with the store's errors.
    private static func write(
        _ data: Data,
        at relative: RelativePath,
        in folder: StoreFolder,
        replacing: Bool
    ) throws(FileStoreError) {
        do {
            try folder.write(data, as: relative.name, in: relative.folders, replacing: replacing)
        } catch {
            throw FileStoreError(error, operation: .write, path: relative.string)
        }
    }

    /// ``write(_:at:in:replacing:)`` on the concurrent pool, for data larger than ``largeFileSize``.
    @concurrent private static func writeOffCaller(
        _ data: Data,
        at relative: RelativePath,
        in folder: StoreFolder,
        replacing: Bool
    ) async throws(FileStoreError) {
        try write(data, at: relative, in: folder, replacing: replacing)
    }

    /// Reads the whole file at `relative` on the concurrent pool, for a file larger than ``largeFileSize``; nil when
    /// it is gone.
    @concurrent private static func loadOffCaller(_ relative: RelativePath, in folder: StoreFolder)
        async throws(FileStoreError) -> Data?
    {
        do {
            return try folder.read(at: relative)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw FileStoreError(error, operation: .read, path: relative.string)
        }
    }
}
