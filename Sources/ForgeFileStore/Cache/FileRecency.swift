internal import Foundation

/// The files a ``BoundedFileStore`` knows, with their sizes, in the order they were last used, and the saves in
/// progress, whose bytes are counted from the moment they make room.
struct FileRecency: Sendable {
    /// Each file's size and the number of its last use (higher is more recent).
    private var files: [String: (size: Int, use: UInt64)] = [:]
    /// The number of the latest use.
    private var lastUse: UInt64 = 0
    /// The sum of the known files' sizes, the saves in progress included.
    private(set) var totalSize = 0
    /// For each path being saved, how many saves of it are in progress: never a victim meanwhile.
    private var saving: [String: Int] = [:]

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

    /// Whether `path` is known or being saved: a victim chosen before then must not be removed now.
    func isInUse(_ path: String) -> Bool {
        files[path] != nil || saving[path] != nil
    }

    /// Makes room for a save of `size` bytes at `path` within `maxBytes` and `maxFiles`: chooses the least recently
    /// used files to remove (never `path`, never a file being saved), forgets them, and counts the new file as used
    /// now, as a save in progress.
    ///
    /// - Returns: The files to remove, least recently used first, and what to pass to ``finishSaving(_:keeping:)``;
    ///   nil when the room cannot be made because saves in progress hold it (nothing is changed then).
    mutating func reserve(
        _ size: Int,
        at path: String,
        maxBytes: Int,
        maxFiles: Int?
    ) -> (victims: [(path: String, size: Int)], previous: (size: Int, use: UInt64)?)? {
        var bytes = totalSize - (files[path]?.size ?? 0) + size
        var count = files.count + (files[path] == nil ? 1 : 0)
        var victims: [(path: String, size: Int)] = []
        // Most saves fit: only one that does not orders the files by recency (a sort of every file the cache knows).
        if bytes > maxBytes || count > (maxFiles ?? .max) {
            let oldestFirst = files.filter { $0.key != path && saving[$0.key] == nil }
                .sorted { $0.value.use < $1.value.use }
            for (victim, file) in oldestFirst {
                guard bytes > maxBytes || count > (maxFiles ?? .max) else { break }
                victims.append((victim, file.size))
                bytes -= file.size
                count -= 1
            }
        }
        guard bytes <= maxBytes, count <= (maxFiles ?? .max) else { return nil }
        for victim in victims { forget(victim.path) }
        let previous = files[path]
        use(path, size: size)
        saving[path, default: 0] += 1
        return (victims, previous)
    }

    /// Ends a save of `path` that ``reserve(_:at:maxBytes:maxFiles:)`` made room for; one that failed puts back what
    /// was known of `path` before it.
    mutating func finishSaving(_ path: String, keeping previous: (size: Int, use: UInt64)??) {
        let remaining = (saving[path] ?? 1) - 1
        saving[path] = remaining > 0 ? remaining : nil
        guard let previous else { return }
        forget(path)
        if let previous {
            files[path] = previous
            totalSize += previous.size
        }
    }
}
