internal import Foundation

/// What a ``BoundedFileStore`` counts (its ``FileRecency``, once it listed its store) and the files deleted through
/// it while it lists the store.
///
/// A listing reads the store before it is installed: a delete that lands in between would otherwise leave the file it
/// removed counted (never fewer than the store holds, but more, until the file is chosen for removal). No save lands
/// while a listing is in progress, since a save waits for the files to be known before it makes room, so every file
/// deleted since a listing began is gone from the store when the listing is installed.
struct CacheCount: Sendable {
    /// The files this instance knows, or nil before its first listing.
    var recency: FileRecency?
    /// The listings of the store in progress.
    private var listings = 0
    /// The files deleted through the cache since the earliest listing in progress began.
    private var deletedWhileListing: Set<String> = []

    /// The files known, when they are up to date: nil before the first listing and after a failed `deleteAll()`.
    var known: FileRecency? {
        guard let recency, !recency.needsListing else { return nil }
        return recency
    }

    /// Notes that a listing of the store begins.
    mutating func beginListing() {
        listings += 1
    }

    /// Ends a listing that read `files`, and returns the files known: those of a listing that ended first, else
    /// `files` without the ones deleted since the listing began, numbered on from the last use.
    mutating func finishListing(reading files: [StoredFileInfo]) -> FileRecency {
        defer { endListing() }
        if let known { return known }
        let listed = FileRecency(
            files.filter { !deletedWhileListing.contains($0.path) },
            after: recency?.lastUse ?? 0
        )
        recency = listed
        return listed
    }

    /// Ends a listing that failed.
    mutating func endListing() {
        listings -= 1
        if listings == 0 { deletedWhileListing = [] }
    }

    /// Forgets `path`, deleted through the cache.
    mutating func deleted(_ path: String) {
        recency?.forget(path)
        if listings > 0 { deletedWhileListing.insert(path) }
    }
}
