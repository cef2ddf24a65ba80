internal import ForgeCore

extension DiskFileStore: FileChangeObserving {
    /// A stream of the changes to the files in `folder` and beneath it, made by any store or process on this store's
    /// folder: see ``FileChangeObserving/changes(in:)``.
    ///
    /// Driven by the system's notifications (inotify on Linux, a dispatch source per folder on Apple platforms), not
    /// by polling: one watch of the store's folder and its sub-folders per process, however many streams, released
    /// with the last stream. The first stream of a folder lists the files beneath it once; each notification then
    /// costs a look at the path it names. What a stream tells is what it finds when it looks, so a change undone
    /// before then (a file saved and deleted at once) may not be told, and quick saves of one file may be told as one
    /// ``FileChange/modified(_:)``. A folder renamed in or out by another program is told as its files created or
    /// deleted. Files rewritten in place by another program, rather than replaced as the store replaces them, are seen
    /// on Linux only.
    ///
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        let relative = try RelativePath.folder(folder)
        return FileChangeFeed.stream(of: self.folder, in: relative.components)
    }
}
