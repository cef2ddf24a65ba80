public import Foundation

/// The storage a file store is built on: the bytes of files at checked paths, and nothing more.
///
/// Implement these requirements (``allFiles()`` has a default), declare ``FileStoring`` beside this
/// protocol, and every requirement of ``FileStoring`` comes with them, written once for every store: paths checked
/// by the rules ``FileStoring`` documents (``FileStoreError/invalidPath(path:reason:)`` before anything is touched,
/// `exists` false for a path that breaks them), one canonical (NFC) spelling per path, `notFound` for a file that is
/// not there, every error a ``FileStoreError`` naming the path as the caller spelled it, and listings sorted, each
/// entry once, as paths relative to the store; so does the inspection every file store has (``fileInfo(at:)``,
/// ``allFiles()``):
///
/// ```swift
/// final class DictionaryStore: FileStoring, FileBackend {
///     private let files = Mutex<[String: Data]>([:])
///
///     func contents(at path: StoredFilePath) throws -> Data? {
///         try files.withLock { files in
///             if let data = files[path.string] { return data }
///             if files.keys.contains(where: { $0.hasPrefix(path.string + "/") }) {
///                 throw FileStoreError.readFailed(path: path.string, reason: .isFolder)
///             }
///             return nil
///         }
///     }
///     // write(_:at:replacing:), removeFile(at:), hasFile(at:), storedFileInfo(at:), entryNames(in:), removeAll(),
///     // storedSize()
/// }
/// ```
///
/// The requirements receive a ``StoredFilePath``, never a string: the path has passed the rules already and is in
/// its canonical spelling, so a store keys its files by ``StoredFilePath/string`` and two spellings of one path are
/// one file, and no store can forget a rule or apply it differently. Absence is an answer, not an error: a read of a
/// file that is not there returns nil and a removal returns false, and the typed API throws
/// ``FileStoreError/notFound(path:)``.
///
/// Folders are implicit: a folder exists while a file lies beneath it, and a path is never a file and a folder at
/// once. Refusing a write that would break that (`FailureReason.isFolder`, `FailureReason.parentIsFile`), and
/// one with `replacing` false where a file is, is the store's to do, in the same atomic step as the write: only the
/// storage can tell without a race. A requirement that fails throws a ``FileStoreError``; the typed API names the
/// path as its caller spelled it in it (so a store may name ``StoredFilePath/string``), and throws any other error as
/// it is, as the key-value and secret stores' typed APIs do.
///
/// The requirements are `nonisolated(nonsending)`, as ``FileStoring``'s are: a store may answer on its caller's
/// executor (``DiskFileStore`` does for small files), and a synchronous implementation conforms. Such a store may
/// declare ``AsyncFileStoring`` too, with nothing more to write: the methods that meet ``FileStoring`` meet it. A
/// store behind a network, whose ``hasFile(at:)`` must wait too, is an ``AsyncFileBackend`` instead.
public protocol FileBackend: Sendable {
    /// The contents of the file at `path`, or nil when no file is stored there (when a folder on its way is a file
    /// too).
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` with `FailureReason.isFolder` when `path` is a folder,
    ///   or with the reason the storage could not be read.
    nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data?

    /// Stores `data` as the file at `path`, atomically: a reader finds the old contents or the new, whole.
    ///
    /// - Parameters:
    ///   - data: The bytes to store.
    ///   - path: Where to store them; the folders on the way are implicit.
    ///   - replacing: Whether a file already at `path` is replaced. When false, the check and the write are one
    ///     atomic step, so of two concurrent writes only one succeeds.
    /// - Throws: ``FileStoreError/alreadyExists(path:)`` when a file is there and `replacing` is false;
    ///   ``FileStoreError/writeFailed(path:reason:)`` with `FailureReason.isFolder` when `path` is a folder,
    ///   `FailureReason.parentIsFile` when a folder on its way is a file, or the reason the storage failed. What
    ///   was stored at `path` is kept.
    nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws

    /// Removes the file at `path`, and with it the folders it leaves holding nothing.
    ///
    /// - Returns: False when no file is stored at `path`.
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` with `FailureReason.isFolder` when `path` is a
    ///   folder, or the reason the storage failed.
    nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool

    /// Whether a file is stored at `path`: false for a folder, and when the storage cannot tell.
    func hasFile(at path: StoredFilePath) -> Bool

    /// The size and modification date of the file at `path`, or nil when no file is stored there (also for a
    /// folder).
    ///
    /// The size is that of the bytes ``contents(at:)`` returns. The modification date is when the file was last
    /// written, by the system's clock (`Date()`), as a file system dates a file: a ``write(_:at:replacing:)`` that
    /// stores the file sets it, a read or a failed write leaves it. The info's ``StoredFileInfo/path`` is
    /// ``StoredFilePath/string``. It is what ``fileInfo(at:)`` and the default ``allFiles()`` report, so a store that
    /// keeps its files in a dictionary keeps a date beside each.
    ///
    /// A store that cannot tell may answer nil, as ``hasFile(at:)`` answers false (``DiskFileStore`` does for a file
    /// it may not look at), or throw.
    ///
    /// - Throws: ``FileStoreError/readFailed(path:reason:)`` when the storage cannot be read.
    func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo?

    /// The names of the files and folders directly in `folder`, a folder's name ending in `/` (`"drafts/"`), in any
    /// order; empty when nothing is stored there, or `folder` is a file. ``StoredFilePath/string`` is `""` for the
    /// store's top folder.
    ///
    /// Names are those of the paths the store was given, in their canonical (NFC) spelling; a store whose storage
    /// others may write (a folder on disk) lists what they wrote in that spelling too, and leaves out what no path
    /// can name. The typed API sorts them and turns them into paths.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)``.
    nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String]

    /// Removes every file and folder of this store, and nothing else: not the files of another store on the same
    /// storage (another namespace).
    ///
    /// - Throws: ``FileStoreError/deleteFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func removeAll() async throws

    /// The sum of the sizes, in bytes, of every file of this store.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)`` with an empty path.
    nonisolated(nonsending) func storedSize() async throws -> Int

    /// Every file of this store, at any depth, with its size and modification date, sorted by path as Swift sorts
    /// strings.
    ///
    /// The default walks the folders with ``entryNames(in:)`` and asks ``storedFileInfo(at:)`` for each file,
    /// leaving out a file removed during the walk. Implement it when the storage can answer at once (a database, in
    /// one statement) with the same answer.
    ///
    /// - Throws: ``FileStoreError/listFailed(path:reason:)``, or what ``storedFileInfo(at:)`` throws.
    nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo]
}
