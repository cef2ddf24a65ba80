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
