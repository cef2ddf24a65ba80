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
    /// The names read, in order, and the count of listings, guarded by one lock.
    private let counts = LockedState<(reads: [String], listings: Int)>(([], 0))

    /// An empty log.
    package init() {}

    /// How many files the folder opened for reading: reads of a whole file, files opened to be read in part, and the
    /// reads of a conditional removal or a guarded write.
    package var reads: Int { counts.withLock { $0.reads.count } }

    /// The names of the files opened for reading, in order, each as often as it was (a path beneath the folder as it
    /// was given).
    package var namesRead: [String] { counts.withLock { $0.reads } }

    /// How many listings of the folder, or of a folder beneath it, were taken.
    package var listings: Int { counts.withLock { $0.listings } }

    /// Counts one file opened for reading, `name`.
    func recordRead(of name: String) {
        counts.withLock { $0.reads.append(name) }
    }

    /// Counts one listing.
    func recordListing() {
        counts.withLock { $0.listings += 1 }
    }
}
