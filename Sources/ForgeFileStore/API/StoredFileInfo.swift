public import Foundation

/// What an inspection of a file store shows of one file: its path, size and last change.
///
/// Every file store reports it alike: ``FileBackend/fileInfo(at:)`` and ``FileBackend/allFiles()`` (and their
/// ``AsyncFileBackend`` forms) on the disk store, the in-memory twin, `PostgresFileStore` and stores of your own.
public struct StoredFileInfo: Sendable, Hashable {
    /// The file's path relative to the store, such as `"avatars/current.jpg"`.
    public var path: String
    /// The file's size in bytes.
    public var size: Int
    /// When the file was last saved.
    public var modificationDate: Date

    /// Creates a description of the file at `path`.
    ///
    /// - Parameters:
    ///   - path: The file's path relative to the store.
    ///   - size: The file's size in bytes.
    ///   - modificationDate: When the file was last saved.
    public init(path: String, size: Int, modificationDate: Date) {
        self.path = path
        self.size = size
        self.modificationDate = modificationDate
    }
}
