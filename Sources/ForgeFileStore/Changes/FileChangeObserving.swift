/// A ``FileStoring`` that tells of the changes to its files, as they happen.
///
/// ``DiskFileStore`` sees the changes of every process on its folder, and ``InMemoryFileStore`` those of every
/// caller of the instance, so a service that reacts to files written elsewhere is tested with the in-memory twin:
///
/// ```swift
/// let files = InMemoryFileStore()
/// let changes = try files.changes(in: "inbox")   // observes from here on
/// try await files.save(Data("hi".utf8), to: "inbox/note.txt")
/// var iterator = changes.makeAsyncIterator()
/// let first = await iterator.next()   // .created("inbox/note.txt")
/// ```
///
/// ``AsyncFileChangeObserving`` is the same capability for ``AsyncFileStoring``: both stores conform to it with the
/// same `changes(in:)`.
public protocol FileChangeObserving: FileStoring {
    /// A stream of the changes to the files in `folder` and the folders beneath it, at any depth, from the moment
    /// of the call.
    ///
    /// Each change names a file by its path relative to the store: ``FileChange/created(_:)`` when a file appears
    /// where there was none, ``FileChange/modified(_:)`` when it is replaced or rewritten,
    /// ``FileChange/deleted(_:)`` when it goes (a ``FileStoring/deleteAll()`` tells of each file, in path order).
    /// Folders are implicit and not told of. The folder need not exist; `""` observes the whole store, and a
    /// trailing `/` is allowed, as in ``FileStoring/list(in:)``; a file at the folder's own path is not in it. The
    /// stream buffers what its consumer has not read yet, in order, and ends when the consuming task is cancelled (an
    /// ``InMemoryFileStore``'s streams also end when the store is released). A store that learns of changes from the
    /// system may fold together changes made faster than it looks at them: ``DiskFileStore`` says how.
    ///
    /// - Parameter folder: The folder to observe, by the same rules as ``FileStoring/list(in:)``.
    /// - Returns: The stream of changes.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` when `folder` is not a valid folder path.
    func changes(in folder: String) throws -> AsyncStream<FileChange>
}
