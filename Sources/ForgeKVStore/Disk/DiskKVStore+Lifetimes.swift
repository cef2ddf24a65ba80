public import Foundation
internal import ForgeCore

/// What ``DiskKVStore`` adds to the lifetimes written once above ``KVBackend``: a value's expiration date is in its
/// file (`ExpiryHeader`), and the folder's index of lifetimes, `.forge-lifetimes` (`LifetimesIndex`), names the files
/// that hold one and from when each may have expired. A folder without the index holds no lifetime: each question
/// first looks for it, with the one `stat` it asks anyway, and then answers as a store without lifetimes does. In a
/// folder with it, only the files that may have expired are read; the index's documentation says why that holds while
/// other instances and processes write and remove.
extension DiskKVStore {
    /// The keys whose value has not expired at `date`.
    ///
    /// In a folder without the index of lifetimes (`.forge-lifetimes`), the folder's listing, as ``storedNames()``
    /// gives it. Otherwise the listing, then the files that the index says may have expired by `date`, read for their
    /// header (the index itself is read only where it grew since this instance last read it). With a damaged index,
    /// every key file is read. A file that cannot be read, or whose header is damaged, is listed: its key holds a
    /// value, one that reads as nil.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when the folder cannot be listed.
    public func storedNames(liveAt date: Date) throws -> [String] {
        switch folderLifetimes {
        case .none:
            return try listedKeys()
        case .indexed(let index):
            let mayHaveExpired = index.filesThatMayHaveExpired(by: Self.milliseconds(of: date))
            return try listedKeys(liveAt: date, readingOnly: Set(mayHaveExpired))
        case .unknown:
            return try listedKeys(liveAt: date)
        }
    }

    /// Whether `name` holds a value that has not expired at `date`.
    ///
    /// For a name that fits a file name, the index of lifetimes (`.forge-lifetimes`) and the key's file are looked for
    /// through one open of the folder. Without a file, false; without the index, or when the index says the file holds
    /// no lifetime that may have expired by `date`, true. Otherwise its file is read, since a `stat` cannot tell; when
    /// the read fails, whether a regular file is there.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        if case .exact(let fileName) = KeyFileName(key: name) {
            // The index first: a lifetime written meanwhile is named there before its file is written.
            let statuses = folder.statuses(of: [LifetimesIndex.name, fileName])
            guard (try? statuses[1].get())?.kind == .file else { return false }
            switch lifetimes(indexStatus: statuses[0]) {
            case .none: return true
            case .indexed(let index):
                guard index.mayHaveExpired(fileName, by: Self.milliseconds(of: date)) else { return true }
            case .unknown: break
            }
        } else if case .none = folderLifetimes {
            return hasValue(named: name)
        }
        switch Result(catching: { try storedValue(named: name) }) {
        case .success(let value): return value.map { !$0.isExpired(at: date) } ?? false
        case .failure: return hasValue(named: name)
        }
    }

    /// What the folder says of lifetimes, its index of lifetimes having the status `indexStatus`.
    enum Lifetimes {
        /// No index: no value in the folder has a lifetime.
        case none
        /// The index, to be trusted.
        case indexed(LifetimesIndex)
        /// An index that is damaged, or cannot be read or looked at: any file may hold a lifetime.
        case unknown
    }

    /// What the folder says of lifetimes: its index of lifetimes looked for with one `stat`, and read as
    /// ``lifetimes(indexStatus:)`` reads it.
    var folderLifetimes: Lifetimes {
        lifetimes(indexStatus: folder.statuses(of: [LifetimesIndex.name])[0])
    }

    /// What the folder says of lifetimes, its index having the status `indexStatus`: read through this instance's
    /// cache, so an index unchanged since the last call is not read again.
    func lifetimes(indexStatus: Result<FileStatus?, FileSystemError>) -> Lifetimes {
        switch indexStatus {
        case .success(nil): return .none
        case .failure(let error): return error.isNotFound ? .none : .unknown
        case .success(let status?):
            guard status.kind == .file, let version = status.version,
                let index = lifetimes.index(in: folder, version: version)
            else { return .unknown }
            return .indexed(index)
        }
    }

    /// `date` in whole milliseconds since 1970, rounded up: a file whose index date is at most this may have expired
    /// by `date` (its header, read, decides).
    static func milliseconds(of date: Date) -> Int64 {
        KVStoredValue.milliseconds(of: date, rounding: .up)
    }

    /// Removes up to `limit` values that have expired at `date`, and returns their keys; none when `limit` is 0 or
    /// less.
    ///
    /// In a folder without the index of lifetimes (`.forge-lifetimes`) there is nothing to remove: the call costs one
    /// `stat` and returns no key, as it does when the index names no file that may have expired (read only where it
    /// grew since this instance last read it). Otherwise, under the folder's exclusive lock, which every write and
    /// remove of this library's disk key-value stores waits for, it reads what was added to the index, reads the files
    /// it names that may have expired, earliest first (at most eight times `limit` of them), removes those that have
    /// until it has removed `limit`, and adds a line to the index that forgets each file it found removed, expired or
    /// without a lifetime: a value set again, or removed, by this process or another is never lost to the reclaim (a
    /// process of a version before lifetimes takes no lock), and the call costs the files that may have expired. The
    /// index is written again, whole, once it holds more than twice the lines its files need, and when it is damaged,
    /// from every file in the folder. A file that cannot be read is skipped.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when the folder cannot be listed,
    ///   ``KVStoreError/removeFailed(key:underlying:)`` naming the key of an expired file that cannot be removed.
    public func removeExpiredValues(at date: Date, limit: Int) throws -> [String] {
        try removeExpiredValues(at: date, limit: limit, whenFound: { _ in })
    }

    /// ``removeExpiredValues(at:limit:)``, calling `whenFound` with each expired key once its file was read and found
    /// expired, with the folder's lock held: the tests start another process's write there.
    package func removeExpiredValues(
        at date: Date,
        limit: Int,
        whenFound: (_ key: String) -> Void
    ) throws -> [String] {
        guard limit > 0 else { return [] }
        switch folderLifetimes {
        case .none: return []
        case .indexed(let index):
            guard index.hasFilesThatMayHaveExpired(by: Self.milliseconds(of: date)) || index.isWorthCompacting
            else { return [] }
        case .unknown: break
        }
        do {
            return try folder.withExclusiveLock { locked in
                try removeExpiredValues(in: locked, at: date, limit: limit, whenFound: whenFound)
            } ?? []
        } catch let error as FileSystemError {
            throw KVStoreError(listing: error)
        }
    }
}
