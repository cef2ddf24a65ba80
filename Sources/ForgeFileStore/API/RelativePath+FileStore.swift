internal import ForgeCore

extension RelativePath {
    /// `path` checked as a file path, or ``FileStoreError/invalidPath(path:reason:)``.
    static func file(_ path: String) throws(FileStoreError) -> RelativePath {
        do {
            return try RelativePath(validating: path)
        } catch {
            throw FileStoreError.invalidPath(path: path, reason: error.description)
        }
    }

    /// `path` checked as a folder path (`""` is the store's top folder), or
    /// ``FileStoreError/invalidPath(path:reason:)``.
    static func folder(_ path: String) throws(FileStoreError) -> RelativePath {
        do {
            return try RelativePath(validatingFolder: path)
        } catch {
            throw FileStoreError.invalidPath(path: path, reason: error.description)
        }
    }
}

extension RelativePath {
    /// The folders on the way to the file, outermost first: `a/b/c.txt` gives `a` and `b`.
    var folders: ArraySlice<String> { components.dropLast() }

    /// The file's own name, the last of the path: `a/b/c.txt` gives `c.txt`.
    var name: String { components.last ?? "" }
}
