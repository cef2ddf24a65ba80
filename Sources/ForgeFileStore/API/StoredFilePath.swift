internal import ForgeCore

/// A path checked by the rules every ``FileStoring`` store applies, in the canonical spelling stores keep it in.
///
/// Every store checks its paths this way: the typed API of ``FileStoring`` and ``AsyncFileStoring`` checks each path
/// it is given and hands a ``FileBackend`` or an ``AsyncFileBackend`` the checked value, so that every store refuses
/// the same paths with the same error and names one file by every canonically equivalent spelling:
///
/// ```swift
/// let path = try StoredFilePath(validating: "docs/caf\u{65}\u{301}.txt")
/// path.string            // "docs/café.txt", precomposed (NFC)
/// path.components        // ["docs", "café.txt"]
/// path.enclosingFolders  // ["docs"]
/// ```
///
/// The rules are those of ``FileStoring``: a path is `/`-separated names, refused when it is empty, absolute, holds
/// NUL, is longer than ``maximumLength`` bytes, or has a name that is empty, `.`, `..`, longer than 255 bytes, or of
/// the form ``DiskFileStore`` reserves for its temporary files.
public struct StoredFilePath: Sendable, Hashable {
    /// The checked path, shared with the library's own stores.
    let relative: RelativePath

    /// The longest path, in UTF-8 bytes of its canonical spelling, that is accepted.
    public static var maximumLength: Int { RelativePath.maximumLength }

    /// Checks `path` as the path of a file.
    ///
    /// - Parameter path: A relative path such as `"docs/report.pdf"`.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` naming `path` as given, when a rule refuses it.
    public init(validating path: String) throws(FileStoreError) {
        relative = try RelativePath.file(path)
    }

    /// Checks `path` as the path of a folder, as ``FileStoring/list(in:)`` takes it: the rules of a file path,
    /// except that `""` is the store's top folder and one trailing `/` is allowed (`"docs/"` is `"docs"`).
    ///
    /// - Parameter path: A relative folder path, or `""`.
    /// - Throws: ``FileStoreError/invalidPath(path:reason:)`` naming `path` as given, when a rule refuses it.
    public init(validatingFolder path: String) throws(FileStoreError) {
        relative = try RelativePath.folder(path)
    }

    /// The path in its canonical (NFC) spelling, names joined by `/`, with no `/` at the end; `""` for the top folder.
    public var string: String { relative.string }

    /// The names of the path, outermost first; empty for the top folder.
    public var components: [String] { relative.components }

    /// The paths of the folders that hold this path, outermost first: `a/b/c.txt` gives `a` and `a/b`.
    public var enclosingFolders: [String] { relative.ancestors }
}
