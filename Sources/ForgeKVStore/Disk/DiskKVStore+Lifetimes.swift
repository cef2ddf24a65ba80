public import Foundation
internal import ForgeCore

/// What ``DiskKVStore`` adds to the lifetimes written once above ``KVBackend``: a value's expiration date is in its
/// file (`ExpiryHeader`), so the questions a `stat` or a listing answered without lifetimes read the files, but only
/// in a folder that holds the marker file `.forge-lifetimes` (a value with a lifetime was written there): in any other
/// folder each first looks for the marker, with one `stat`, and then answers as a store without lifetimes does. The
/// marker's documentation says why that holds while other instances and processes write and remove.
extension DiskKVStore {
    /// The keys whose value has not expired at `date`.
    ///
    /// In a folder without the marker file (`.forge-lifetimes`), the folder's listing, as ``storedNames()`` gives it.
    /// Otherwise the listing, then every key file read, whole, for its header (values are small; a folder of n keys
    /// costs n reads). A file that cannot be read, or whose header is damaged, is listed: its key holds a value, one
    /// that reads as nil.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when the folder cannot be listed.
    public func storedNames(liveAt date: Date) throws -> [String] {
        try listedKeys(liveAt: mayHoldLifetimes ? date : nil)
    }

    /// Whether `name` holds a value that has not expired at `date`.
    ///
    /// In a folder without the marker file (`.forge-lifetimes`), whether `name` has a file, as ``hasValue(named:)``
    /// tells with a `stat`: for a name that fits a file name, the marker and the file are looked for through one open
    /// of the folder. Otherwise its file is read, since a `stat` cannot tell; when the read fails, whether a regular
    /// file is there.
    public func hasValue(named name: String, liveAt date: Date) -> Bool {
        if case .exact(let fileName) = KeyFileName(key: name) {
            // The marker first: a lifetime written meanwhile makes it before its file.
            let statuses = folder.statuses(of: [LifetimesMarker.name, fileName])
            guard (try? statuses[1].get())?.kind == .file else { return false }
            guard Self.mayHoldLifetimes(markerStatus: statuses[0]) else { return true }
        } else {
            guard mayHoldLifetimes else { return hasValue(named: name) }
        }
        switch Result(catching: { try storedValue(named: name) }) {
        case .success(let value): return value.map { !$0.isExpired(at: date) } ?? false
        case .failure: return hasValue(named: name)
        }
    }

    /// Whether the folder holds the marker file (`.forge-lifetimes`), or may: one `stat`, and true when it fails other
    /// than for "nothing there", so a store that cannot tell takes the long way, which is always right.
    var mayHoldLifetimes: Bool {
        Self.mayHoldLifetimes(markerStatus: folder.statuses(of: [LifetimesMarker.name])[0])
    }

    /// Whether a folder whose marker file (`.forge-lifetimes`) has the status `markerStatus` holds the marker, or may.
    private static func mayHoldLifetimes(markerStatus: Result<FileStatus?, FileSystemError>) -> Bool {
        switch markerStatus {
        case .success(let status): status != nil
        case .failure(let error): !error.isNotFound
        }
    }

    /// Removes up to `limit` values that have expired at `date`, and returns their keys; none when `limit` is 0 or
    /// less.
    ///
    /// In a folder without the marker file (`.forge-lifetimes`) there is nothing to remove: the call costs one `stat`
    /// and returns no key. Otherwise each call lists the folder and reads key files, in the listing's order, until it
    /// has found `limit` expired ones, so a call costs a listing and up to one read per key. Each file is checked and
    /// removed under the folder's exclusive lock, which every write and remove of this library's disk key-value stores
    /// waits for: a value set again, or removed, by this process or another is never lost to the reclaim (a process of
    /// a version before lifetimes takes no lock). A file that cannot be read is skipped.
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
        guard limit > 0, mayHoldLifetimes else { return [] }
        let entries: [FolderEntry]
        do {
            entries = try folder.list()
        } catch {
            throw KVStoreError(listing: error)
        }
        var removed: [String] = []
        for entry in entries where entry.kind == .file && entry.name.hasSuffix(KeyFileName.fileExtension) {
            guard removed.count < limit else { break }
            let exactKey = KeyFileName.key(ofExactName: entry.name)
            var key = exactKey
            var found = false
            do {
                let wasRemoved = try folder.remove(entry.name) { data in
                    guard let contents = ExpiryHeader.read(data), Self.hasExpired(contents, at: date),
                        let holder = exactKey ?? longKey(in: contents.body, ofFile: entry.name)
                    else { return false }
                    key = holder
                    if !found {
                        found = true
                        whenFound(holder)
                    }
                    return true
                }
                if wasRemoved, let key { removed.append(key) }
            } catch  where error.operation == .open || error.operation == .read {
                // Not readable, so not known to have expired: left as it is.
                continue
            } catch {
                throw KVStoreError(error, removing: key ?? entry.name)
            }
        }
        return removed
    }

    /// The key a long key's envelope `body` names, when `fileName` is one of that key's file names.
    private func longKey(in body: Data, ofFile fileName: String) -> String? {
        guard let key = Self.envelopeKey(in: body), KeyFileName(key: key).candidates.contains(fileName) else {
            return nil
        }
        return FileNameEncoding.canonicalForm(of: key)
    }
}
