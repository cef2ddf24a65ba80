/// An ``AsyncFileStoring`` that tells of the changes to its files, as they happen: ``FileChangeObserving`` for the
/// asynchronous protocol.
///
/// ``DiskFileStore`` and ``InMemoryFileStore`` conform with the one `changes(in:)` that meets both protocols, so a
/// service written against ``AsyncFileStoring`` observes files as one written against ``FileStoring`` does:
///
/// ```swift
/// func watchInbox(_ files: any AsyncFileChangeObserving) async throws {
///     for await change in try files.changes(in: "inbox") {
///         print(change)   // .created("inbox/note.txt"), …
///     }
/// }
/// ```
public protocol AsyncFileChangeObserving: AsyncFileStoring {
    /// A stream of the changes to the files in `folder` and the folders beneath it, at any depth, from the moment
    /// of the call: see ``FileChangeObserving/changes(in:)``.
    ///
    /// - Parameter folder: The folder to observe, by the same rules as ``AsyncFileStoring/list(in:)``.
    /// - Returns: The stream of changes.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` when `folder` is not a valid folder path.
    func changes(in folder: String) throws -> AsyncStream<FileChange>
}

extension DiskFileStore: AsyncFileChangeObserving {}
extension InMemoryFileStore: AsyncFileChangeObserving {}
