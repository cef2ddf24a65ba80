internal import Foundation

/// The files a ``BoundedFileStore`` knows, with their sizes, in the order they were last used.
struct FileRecency: Sendable {
    /// Each file's size and the number of its last use (higher is more recent).
    private var files: [String: (size: Int, use: UInt64)] = [:]
    /// The number of the latest use.
    private var lastUse: UInt64 = 0
    /// The sum of the known files' sizes.
    private(set) var totalSize = 0

    /// The files of `listing`, used in the order of their modification dates, oldest first (then by path).
    init(_ listing: [StoredFileInfo]) {
        let ordered = listing.sorted { ($0.modificationDate, $0.path) < ($1.modificationDate, $1.path) }
        for file in ordered { use(file.path, size: file.size) }
    }

    /// Notes that `path`, of `size` bytes, was used now.
    mutating func use(_ path: String, size: Int) {
        lastUse += 1
        totalSize += size - (files[path]?.size ?? 0)
        files[path] = (size, lastUse)
    }

    /// Forgets `path`, removed from the store.
    mutating func forget(_ path: String) {
        guard let removed = files.removeValue(forKey: path) else { return }
        totalSize -= removed.size
    }

    /// The files to remove, least recently used first, so that a file of `size` bytes at `path` fits within
    /// `maxBytes` and `maxFiles`; never `path` itself, which the write replaces.
    func leastRecentlyUsed(makingRoomFor size: Int, at path: String, maxBytes: Int, maxFiles: Int?) -> [String] {
        var bytes = totalSize - (files[path]?.size ?? 0) + size
        var count = files.count + (files[path] == nil ? 1 : 0)
        var victims: [String] = []
        let oldestFirst = files.filter { $0.key != path }.sorted { $0.value.use < $1.value.use }
        for (victim, file) in oldestFirst {
            guard bytes > maxBytes || count > (maxFiles ?? .max) else { break }
            victims.append(victim)
            bytes -= file.size
            count -= 1
        }
        return victims
    }
}
