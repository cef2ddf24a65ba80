internal import Foundation

/// What a ``BoundedFileStore`` counts: the files it knows, with their sizes, in the order they were last used, and the
/// saves in progress with the files they remove to make room.
///
/// The count never falls below what the store holds, so keeping the count within the budget keeps the store within
/// it at every moment. A save counts the larger of its file's old and new sizes from the moment it makes room until
/// its write lands. The files it chose to make room are no longer known (no other save chooses them, a load does not
/// bring them back) but are still stored until their removal returns: while they are, the save's part of the count is
/// the larger of what they hold and what it adds, since it writes only once they are removed.
struct FileRecency: Sendable {
    /// A known file: the bytes counted for it and the number of its last use (higher is more recent).
    struct File: Sendable {
        var size: Int
        var use: UInt64
    }

    /// A file a save chose to remove to make room for its own.
    struct Victim: Sendable {
        var path: String
        var file: File
        /// The path of the save that chose it.
        var saver: String
    }

    /// A save in progress.
    private struct Save: Sendable {
        /// Its file's size once written.
        var size: Int
        /// What was known of the path before it.
        var previous: File?
        /// The bytes and files it adds to what was known.
        var added: (bytes: Int, files: Int)
        /// The bytes and files of its victims not removed yet.
        var leaving: (bytes: Int, files: Int)
        /// What its victims still stored add to the count: what they hold beyond what the save adds.
        var beyondKnown: (bytes: Int, files: Int) {
            (max(0, leaving.bytes - added.bytes), max(0, leaving.files - added.files))
        }
    }

    /// The known files, saves in progress included; not the victims.
    private var files: [String: File] = [:]
    /// The number of the latest use.
    private(set) var lastUse: UInt64 = 0
    /// The sum of the known files' sizes.
    private var knownBytes = 0
    /// The saves in progress, by path; calls on one path take turns, so there is one at most.
    private var saving: [String: Save] = [:]
    /// Whether the store must be listed again before the next save: a removal of every file failed part-way.
    private(set) var needsListing = false

    /// What the victims still stored add to the count, over every save in progress (a few, one per call at once).
    private var beyondKnown: (bytes: Int, files: Int) {
        saving.values.reduce(into: (bytes: 0, files: 0)) { total, save in
            total = (total.bytes + save.beyondKnown.bytes, total.files + save.beyondKnown.files)
        }
    }

    /// The bytes counted: never fewer than the store holds.
    var totalSize: Int { knownBytes + beyondKnown.bytes }
    /// The files counted: never fewer than the store holds.
    var fileCount: Int { files.count + beyondKnown.files }

    /// The files of `listing`, used in the order of their modification dates, oldest first (then by path), each
    /// numbered after `previousUse`.
    ///
    /// A cache that lists its store again numbers on from its last use: a load that started before compares the
    /// numbers to tell a file saved since from one it found gone.
    init(_ listing: [StoredFileInfo], after previousUse: UInt64 = 0) {
        lastUse = previousUse
        let ordered = listing.sorted { ($0.modificationDate, $0.path) < ($1.modificationDate, $1.path) }
        for file in ordered {
            lastUse += 1
            files[file.path] = File(size: file.size, use: lastUse)
            knownBytes += file.size
        }
    }

    /// Notes that `path` was used now, when it is a file this cache knows: a read never makes a file known, nor
    /// changes its size, so a file chosen to make room stays chosen.
    mutating func use(_ path: String) {
        guard files[path] != nil else { return }
        lastUse += 1
        files[path]?.use = lastUse
    }

    /// Forgets `path`, found gone by a read that started when the latest use was `useBefore`, unless a save of it is
    /// in progress or landed since (its landing is a use: see ``finishSaving(_:wrote:)``).
    mutating func forgetMissing(_ path: String, readSince useBefore: UInt64) {
        guard saving[path] == nil, let file = files[path], file.use <= useBefore else { return }
        forget(path)
    }

    /// Notes that the store must be listed again before the next save; loads and deletes meanwhile go on counting.
    mutating func needListing() {
        needsListing = true
    }

    /// Forgets `path`, removed from the store.
    mutating func forget(_ path: String) {
        guard let removed = files.removeValue(forKey: path) else { return }
        knownBytes -= removed.size
    }

    /// Makes room for a save of `size` bytes at `path` within `maxBytes` and `maxFiles`: chooses the least recently
    /// used files to remove (never `path`, never a file being saved), moves them from the known files to the save's
    /// victims, and counts the new file as used now, as a save in progress.
    ///
    /// - Returns: The files to remove, least recently used first, each to be passed to
    ///   ``finishRemoving(_:failed:)``; nil when the room cannot be made because saves in progress hold it (nothing is
    ///   changed then).
    mutating func reserve(_ size: Int, at path: String, maxBytes: Int, maxFiles: Int?) -> [Victim]? {
        let previous = files[path]
        let counted = max(size, previous?.size ?? 0)
        let added = (bytes: counted - (previous?.size ?? 0), files: previous == nil ? 1 : 0)
        var bytes = totalSize + added.bytes
        var count = fileCount + added.files
        let fileLimit = maxFiles ?? .max
        var victims: [Victim] = []
        // Most saves fit: only one that does not orders the files by recency (a sort of every file the cache knows).
        if bytes > maxBytes || count > fileLimit {
            let oldestFirst = files.filter { $0.key != path && saving[$0.key] == nil }
                .sorted { $0.value.use < $1.value.use }
            for (victim, file) in oldestFirst {
                guard bytes > maxBytes || count > fileLimit else { break }
                victims.append(Victim(path: victim, file: file, saver: path))
                bytes -= file.size
                count -= 1
            }
        }
        guard bytes <= maxBytes, count <= fileLimit else { return nil }
        for victim in victims { forget(victim.path) }
        lastUse += 1
        files[path] = File(size: counted, use: lastUse)
        knownBytes += added.bytes
        let leaving = victims.reduce(into: (bytes: 0, files: 0)) { $0 = ($0.bytes + $1.file.size, $0.files + 1) }
        saving[path] = Save(size: size, previous: previous, added: added, leaving: leaving)
        return victims
    }

    /// Whether `victim` may be removed now: false when a save made its path known again since it was chosen (the
    /// file there is that save's, not the one chosen).
    func mayRemove(_ victim: Victim) -> Bool {
        files[victim.path] == nil
    }

    /// Stops counting `victim` as stored, once its removal returned or was skipped; one whose removal failed while
    /// its path is still unknown is known again, as it was.
    mutating func finishRemoving(_ victim: Victim, failed: Bool) {
        saving[victim.saver]?.leaving.bytes -= victim.file.size
        saving[victim.saver]?.leaving.files -= 1
        if failed, files[victim.path] == nil {
            files[victim.path] = victim.file
            knownBytes += victim.file.size
        }
    }

    /// Ends the save of `path` that ``reserve(_:at:maxBytes:maxFiles:)`` made room for, once each of its victims is
    /// finished: one that wrote counts the new file's size, one that failed puts back what was known of `path`.
    ///
    /// A save that wrote is used again as it lands: a read that began after its room was made and found nothing (the
    /// file was not written yet) then tells it from a file gone since, and keeps it.
    mutating func finishSaving(_ path: String, wrote: Bool) {
        guard let save = saving.removeValue(forKey: path), let counted = files[path]?.size else { return }
        if wrote {
            use(path)
            files[path]?.size = save.size
            knownBytes += save.size - counted
        } else {
            files[path] = save.previous
            knownBytes += (save.previous?.size ?? 0) - counted
        }
    }
}
