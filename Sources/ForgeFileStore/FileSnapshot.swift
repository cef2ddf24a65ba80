internal import ForgeCore

/// The versions of the files a change feed last saw, grouped by folder, so that what changed at or beneath one path
/// is found without going through every file.
struct FileSnapshot: Sendable {
    /// The version of each file, by the path of its folder ("" for the store folder), then by its name.
    private var folders: [String: [String: FileVersion]] = [:]

    /// A snapshot of `versions`, by file path relative to the store.
    init(_ versions: [String: FileVersion]) {
        for (path, version) in versions {
            let (folder, name) = Self.split(path)
            folders[folder, default: [:]][name] = version
        }
    }

    /// Records `now`, the versions of the files at or beneath `path` as they are now, in place of what was
    /// recorded there.
    ///
    /// - Returns: The changes between the two, in path order: a path only in `now` was created, a path only in the
    ///   snapshot deleted, and one in both with another version modified.
    mutating func replace(at path: String, with now: [String: FileVersion]) -> [FileChange] {
        var before: [String: FileVersion] = [:]
        let (folder, name) = Self.split(path)
        if !path.isEmpty, let version = folders[folder]?.removeValue(forKey: name) { before[path] = version }
        if folders[folder]?.isEmpty == true { folders[folder] = nil }
        for (folderPath, files) in folders where FolderWatch.isPath(folderPath, within: path) {
            for (fileName, version) in files { before[FolderWatch.path(of: fileName, in: folderPath)] = version }
            folders[folderPath] = nil
        }
        for (filePath, version) in now {
            let (folder, name) = Self.split(filePath)
            folders[folder, default: [:]][name] = version
        }
        var changes: [FileChange] = []
        for (filePath, version) in now {
            switch before[filePath] {
            case nil: changes.append(.created(filePath))
            case version: continue
            default: changes.append(.modified(filePath))
            }
        }
        for filePath in before.keys where now[filePath] == nil { changes.append(.deleted(filePath)) }
        return changes.sorted { $0.path < $1.path }
    }

    /// The folder path and the name of the file at `path`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }
}
