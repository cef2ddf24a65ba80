/// A count of the reads and listings a ``StoreFolder`` made: the seam through which a test proves that a call read no
/// file.
///
/// A folder is given one in its ``StoreFolder/Options``; a folder without one (every store outside the tests) pays one
/// nil check per read or listing.
///
/// ```swift
/// let log = FolderAccessLog()
/// let folder = StoreFolder(path: path, options: .init(accessLog: log))
/// _ = try folder.list()
/// #expect(log.listings == 1 && log.reads == 0)
/// ```
package final class FolderAccessLog: Sendable {
    /// The counts, guarded by one lock.
    private let counts = LockedState<(reads: Int, listings: Int)>((0, 0))

    /// An empty log.
    package init() {}

    /// How many files the folder opened for reading: reads of a whole file, files opened to be read in part, and the
    /// reads of a conditional removal or a guarded write.
    package var reads: Int { counts.withLock { $0.reads } }

    /// How many listings of the folder, or of a folder beneath it, were taken.
    package var listings: Int { counts.withLock { $0.listings } }

    /// Counts one file opened for reading.
    func recordRead() {
        counts.withLock { $0.reads += 1 }
    }

    /// Counts one listing.
    func recordListing() {
        counts.withLock { $0.listings += 1 }
    }
}
