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

    /// A cache that has read nothing.
    init() {}

    /// The index of `folder`, whose file has the version `version`; nil when it is damaged or cannot be read.
    func index(in folder: StoreFolder, version: FileVersion) -> LifetimesIndex? {
        let cached = last.withLock { $0 }
        if let cached, cached.version == version { return cached.index }
        var index: LifetimesIndex?
        if var grown = cached?.index, let previous = cached?.version, previous.device == version.device,
            previous.inode == version.inode, version.size >= Int64(grown.length),
            let added = try? folder.read(LifetimesIndex.name, from: grown.length, ifStartingWith: grown.header)
        {
            index = grown.add(parsing: added[...]) ? grown : nil
        } else if let data = try? folder.read(LifetimesIndex.name) {
            index = LifetimesIndex(parsing: data)
        }
        last.withLock { $0 = index.map { (version, $0) } }
        return index
    }
}
