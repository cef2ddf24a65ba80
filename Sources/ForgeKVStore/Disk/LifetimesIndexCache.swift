internal import ForgeCore
internal import Foundation

/// What a ``DiskKVStore`` instance last read of its folder's `.forge-lifetimes` (``LifetimesIndex``), so that a call
/// which finds the index as it was reads nothing, and one which finds it grown reads only what was added.
///
/// The index is found by its file's version (device, inode, size, modification time), which the `stat` every call
/// already makes returns. An index only grows at its end until a reclaim writes a new one by rename (a new file), so
/// a larger file of the same identity is read from where the last read stopped, after checking that it still starts
/// with the same first line (an index removed with its folder and made again may get the same inode number; a new one
/// has a new identity in its first line).
final class LifetimesIndexCache: Sendable {
    /// The last index read, and the version of its file when it was.
    private let last = LockedState<(version: FileVersion, index: LifetimesIndex)?>(nil)

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
        var cached = last.withLock { state -> (version: FileVersion, index: LifetimesIndex)? in
            defer { if state?.version != version { state = nil } }
            return state
        }
        if let cached, cached.version == version { return cached.index }
        let previous = cached?.version
        var grown = cached?.index
        cached = nil
        var index: LifetimesIndex?
        if var grown = grown.take(), let previous, previous.device == version.device,
            previous.inode == version.inode, version.size >= Int64(grown.length),
            let added = try? reader.fromOffset(grown.length, grown.header)
        {
            index = grown.add(parsing: added[...]) ? grown : nil
        } else if let data = try? reader.whole() {
            index = LifetimesIndex(parsing: data)
        }
        last.withLock { $0 = index.map { (version, $0) } }
        return index
    }

    /// Remembers `index`, just written as the file of version `version`, so that the next call reads nothing.
    func remember(_ index: LifetimesIndex, version: FileVersion) {
        last.withLock { $0 = (version, index) }
    }
}
