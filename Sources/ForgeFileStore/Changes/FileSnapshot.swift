internal import ForgeCore

/// The versions of the files a change feed last saw, grouped by folder, so that what changed at or beneath one path
/// is found without going through every file.
struct FileSnapshot: Sendable {
    /// The version of each file, by the path of its folder ("" for the store folder), then by its name.
    private var folders: [String: [String: FileVersion]] = [:]
    /// For each folder path, the number of files at any depth beneath it: a path holds files beneath it when it is
    /// counted here.
    private var filesBeneath: [String: Int] = [:]

    /// A snapshot of `versions`, by file path relative to the store.
    init(_ versions: [String: FileVersion]) {
        for (path, version) in versions { insert(version, at: path) }
    }

    /// Records `now`, the versions of the files at or beneath `path` as they are now, in place of what was
    /// recorded there.
    ///
    /// Costs what the files at and beneath `path` cost, and the folders recorded when `path` is a folder.
    ///
    /// - Returns: The changes between the two, in path order: a path only in `now` was created, a path only in the
    ///   snapshot deleted, and one in both with another version modified.
    mutating func replace(at path: String, with now: [String: FileVersion]) -> [FileChange] {
        var before: [String: FileVersion] = [:]
        let (folder, name) = Self.split(path)
        if !path.isEmpty, let version = folders[folder]?[name] { before[path] = version }
        if path.isEmpty || filesBeneath[path] != nil {
            for (folderPath, files) in folders where FolderWatch.isPath(folderPath, within: path) {
                for (fileName, version) in files { before[FolderWatch.path(of: fileName, in: folderPath)] = version }
            }
        }
        for filePath in before.keys { remove(at: filePath) }
        for (filePath, version) in now { insert(version, at: filePath) }
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

    /// Records the file at `path` in `version`.
    private mutating func insert(_ version: FileVersion, at path: String) {
        let (folder, name) = Self.split(path)
        if folders[folder]?[name] == nil {
            for ancestor in Self.ancestors(of: path) { filesBeneath[ancestor, default: 0] += 1 }
        }
        folders[folder, default: [:]][name] = version
    }

    /// Forgets the file at `path`.
    private mutating func remove(at path: String) {
        let (folder, name) = Self.split(path)
        guard folders[folder]?.removeValue(forKey: name) != nil else { return }
        if folders[folder]?.isEmpty == true { folders[folder] = nil }
        for ancestor in Self.ancestors(of: path) {
            let remaining = (filesBeneath[ancestor] ?? 1) - 1
            filesBeneath[ancestor] = remaining > 0 ? remaining : nil
        }
    }

    /// The folder path and the name of the file at `path`.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// The paths of the folders that hold `path`, outermost first: `a/b/c` gives `a` and `a/b`.
    private static func ancestors(of path: String) -> [String] {
        var result: [String] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            result.append(String(path[..<slash]))
            index = path.index(after: slash)
        }
        return result
    }
}
