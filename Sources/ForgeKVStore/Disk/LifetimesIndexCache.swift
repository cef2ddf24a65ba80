internal import ForgeCore
internal import Foundation

/// What a ``DiskKVStore`` instance last read of its folder's `.forge-lifetimes` (``LifetimesIndex``), so that a call
/// which finds the index as it was reads nothing, and one which finds it grown reads only what was added.
///
/// The index is found by its file's version (device, inode, size, modification time), which the `stat` every call
/// already makes returns. An index only grows at its end until a reclaim writes a new one by rename (a new file), so
/// a larger file of the same identity is read from where the last read stopped, after checking that it still starts
/// with the same first line (an index removed with its folder and made again may get the same inode number; a new one
/// has a new identity in its first line). A file of the very version read before is trusted without a read only once
/// its modification time is a tick older than that read (``clockTick``): a new index made within the same tick of the
/// file system's clock could have the same inode, size and time, and is told apart by its first line.
final class LifetimesIndexCache: Sendable {
    /// The last index read, the version of its file when it was, and when it was read.
    private let last = LockedState<Last?>(nil)

    /// What the cache holds.
    private struct Last {
        let version: FileVersion
        let index: LifetimesIndex
        let readAt: Date

        /// Whether a file of `version` is surely the one read: the same version, last changed well before the read,
        /// so that a file changed since would have a later time.
        func isSurely(_ version: FileVersion) -> Bool {
            guard version == self.version else { return false }
            let changed = Date(
                timeIntervalSince1970: Double(version.modificationSeconds)
                    + Double(version.modificationNanoseconds) / 1e9
            )
            return changed.addingTimeInterval(LifetimesIndexCache.clockTick) < readAt
        }
    }

    /// Longer than a tick of the clocks file systems stamp changes with.
    ///
    /// Linux takes a coarse clock, of a few milliseconds; Apple's file systems keep nanoseconds. A file system whose times are coarser (FAT's two seconds)
    /// narrows the guard against a reused inode to the first line's check of a file that grew.
    static let clockTick: TimeInterval = 0.05

    /// How the index file is read: from an offset when it starts with a first line (nil when it does not), or whole.
    struct Reader {
        /// The file from an offset, when it starts with the given first line; nil when it does not.
        let fromOffset: (_ offset: Int, _ header: Data) throws -> Data?
        /// The whole file.
        let whole: () throws -> Data?
    }

    /// A cache that has read nothing.
    init() {}

    /// The index of `folder`, whose file has the version `version`; nil when it is damaged or cannot be read.
    func index(in folder: StoreFolder, version: FileVersion) -> LifetimesIndex? {
        index(
            version: version,
            reading: Reader(
                fromOffset: { try folder.read(LifetimesIndex.name, from: $0, ifStartingWith: $1) },
                whole: { try folder.read(LifetimesIndex.name) }
            )
        )
    }

    /// The index whose file has the version `version`, read through `reader` where it is not known; nil when it is
    /// damaged or cannot be read.
    func index(version: FileVersion, reading reader: Reader) -> LifetimesIndex? {
        // An index of another version is taken out of the cache, so that what was added goes into it without a copy
        // of what it holds.
        var cached = last.withLock { state -> Last? in
            defer { if state?.isSurely(version) != true { state = nil } }
            return state
        }
        if let cached, cached.isSurely(version) { return cached.index }
        let previous = cached?.version
        var grown = cached?.index
        cached = nil
        let readAt = Date()
        var index: LifetimesIndex?
        if var grown = grown.take(), let previous, previous.device == version.device,
            previous.inode == version.inode, version.size >= Int64(grown.length),
            let added = try? reader.fromOffset(grown.length, grown.header)
        {
            index = grown.add(parsing: added[...]) ? grown : nil
        } else if let data = try? reader.whole() {
            index = LifetimesIndex(parsing: data)
        }
        last.withLock { $0 = index.map { Last(version: version, index: $0, readAt: readAt) } }
        return index
    }

    /// Remembers `index`, just written as the file of version `version`, so that the next call reads no more of it
    /// than its first line.
    func remember(_ index: LifetimesIndex, version: FileVersion) {
        last.withLock { $0 = Last(version: version, index: index, readAt: Date()) }
    }
}
