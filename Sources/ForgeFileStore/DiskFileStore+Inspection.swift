internal import Foundation
internal import ForgeCore

/// Reading a store's files with their sizes and dates, for tools that inspect a data folder (such as the
/// `forge inspect` command of the examples).
extension DiskFileStore {
    /// The size and modification date of the file at `path`, or nil when no file is stored there.
    ///
    /// - Parameter path: The relative path of the file.
    /// - Returns: The file's size and date, or nil when no file is stored at `path` (also for a folder).
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)``.
    public func fileInfo(at path: String) throws -> StoredFileInfo? {
        let relative = try RelativePath.file(path)
        guard let status = try? folder.status(of: relative.name, in: relative.folders), status.kind == .file else {
            return nil
        }
        return StoredFileInfo(path: relative.string, size: status.size, modificationDate: status.modificationDate)
    }

    /// Every file of the store, at any depth, sorted by path, with its size and modification date.
    ///
    /// Folders are walked with ``FileStoring/list(in:)``, so temporary files and symbolic links are never listed. A
    /// file removed during the walk is left out.
    ///
    /// ```swift
    /// for file in try await files.allFiles() {
    ///     print(file.path, file.size, file.modificationDate)
    /// }
    /// ```
    ///
    /// - Throws: The errors of ``FileStoring/list(in:)`` and ``fileInfo(at:)``.
    public func allFiles() async throws -> [StoredFileInfo] {
        var files: [StoredFileInfo] = []
        var folders = [""]
        while let folder = folders.popLast() {
            for path in try await list(in: folder) {
                if path.hasSuffix("/") {
                    folders.append(path)
                } else if let info = try fileInfo(at: path) {
                    files.append(info)
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
