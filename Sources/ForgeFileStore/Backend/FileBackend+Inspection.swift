/// Reading a store's files with their sizes and dates, for tools that inspect one (such as the `forge inspect` command
/// of the examples): the same on every store built on the backend contract, the in-memory twin included.
extension FileBackend {
    /// The size and modification date of the file at `path`, or nil when no file is stored there (also for a folder).
    ///
    /// ```swift
    /// if let info = try files.fileInfo(at: "exports/2025-06.pdf") {
    ///     print(info.size, info.modificationDate)
    /// }
    /// ```
    ///
    /// - Parameter path: The relative path of the file.
    /// - Returns: The file's canonical path, size and date, or nil when no file is stored at `path`.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)``, or what the store throws when it cannot tell (see
    ///   ``storedFileInfo(at:)``), naming `path` as given.
    public func fileInfo(at path: String) throws -> StoredFileInfo? {
        let file = try StoredFilePath(validating: path)
        do {
            return try storedFileInfo(at: file)
        } catch {
            throw FileStoreError.naming(error, path: path)
        }
    }

    /// Every file of the store, at any depth, sorted by path, with its size and modification date.
    ///
    /// The walk of ``entryNames(in:)`` and ``storedFileInfo(at:)``: folders are walked as ``FileStoring/list(in:)``
    /// lists them, so temporary files and symbolic links are never listed, and a file removed during the walk is left
    /// out.
    ///
    /// ```swift
    /// for file in try await files.allFiles() {
    ///     print(file.path, file.size, file.modificationDate)
    /// }
    /// ```
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` naming the folder that could not be listed, or what
    ///   ``storedFileInfo(at:)`` throws.
    public nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo] {
        try await walkedFiles()
    }

    /// Every file of the store with its size and date, found by walking the folders from the top; the default
    /// ``allFiles()``, which a store that implements it may still call.
    nonisolated(nonsending) func walkedFiles() async throws -> [StoredFileInfo] {
        try await FileListing.allFiles(
            entryNames: { try await entryNames(in: $0) },
            info: { try storedFileInfo(at: $0) }
        )
    }
}

extension AsyncFileBackend {
    /// The size and modification date of the file at `path`, or nil when no file is stored there (also for a
    /// folder); see ``FileBackend/fileInfo(at:)``.
    ///
    /// - Parameter path: The relative path of the file.
    /// - Returns: The file's canonical path, size and date, or nil when no file is stored at `path`.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)``, or ``FileStoreError/readFailed(path:reason:)`` naming
    ///   `path` as given when the store cannot tell.
    public func fileInfo(at path: String) async throws -> StoredFileInfo? {
        let file = try StoredFilePath(validating: path)
        do {
            return try await storedFileInfo(at: file)
        } catch {
            throw FileStoreError.naming(error, path: path)
        }
    }

    /// Every file of the store, at any depth, sorted by path, with its size and modification date.
    ///
    /// The walk of ``entryNames(in:)`` and ``storedFileInfo(at:)``: a call per folder and per file. See
    /// ``FileBackend/allFiles()``.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` naming the folder that could not be listed, or what
    ///   ``storedFileInfo(at:)`` throws.
    public func allFiles() async throws -> [StoredFileInfo] {
        try await walkedFiles()
    }

    /// Every file of the store with its size and date, found by walking the folders from the top; the default
    /// ``allFiles()``.
    func walkedFiles() async throws -> [StoredFileInfo] {
        try await FileListing.allFiles(
            entryNames: { try await entryNames(in: $0) },
            info: { try await storedFileInfo(at: $0) }
        )
    }
}
