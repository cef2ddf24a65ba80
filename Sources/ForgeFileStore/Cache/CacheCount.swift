/// What a ``BoundedFileStore`` counts (its ``FileRecency``, once it listed its store) and the files deleted through
/// it while it lists the store.
///
/// A listing reads the store before it is installed: a delete that lands in between would otherwise leave the file it
/// removed counted (never fewer than the store holds, but more, until the file is chosen for removal). Only the first
/// listing to end is installed (a later one finds the files known and drops what it read), and no save lands before
/// it, since a save makes room only once the files are known; a failed `deleteAll()`, the only call that makes them
/// unknown again, waits for every call's turn, a listing save's included. So every file deleted since the earliest
/// listing in progress began is gone from the store when a listing is installed (the set may hold older deletes too,
/// of files gone as well).
struct CacheCount: Sendable {
    /// The files this instance knows, or nil before its first listing.
    var recency: FileRecency?
    /// The listings of the store in progress.
    private var listings = 0
    /// The files deleted through the cache since the listings in progress began (cleared when none is left).
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
