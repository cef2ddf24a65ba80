internal import ForgeCore
internal import Foundation

/// A reclaim of ``DiskKVStore``'s expired values, once the folder is held under its exclusive lock: the index of
/// lifetimes read again, the files it says may have expired read, the expired ones removed, the index written again.
extension DiskKVStore {
    /// Removes up to `limit` values that have expired at `date` from `folder`, which this call holds under the
    /// exclusive lock, and returns their keys; see ``removeExpiredValues(at:limit:)``.
    func removeExpiredValues(
        in folder: LockedFolder,
        at date: Date,
        limit: Int,
        whenFound: (_ key: String) -> Void
    ) throws -> [String] {
        let index: LifetimesIndex
        // Whether the index is to be written again, whole, and whether it may be changed at all: not when something
        // else has its name.
        let rewrites: Bool
        var isWritable = true
        switch Result(catching: { () throws(FileSystemError) in try folder.status(of: LifetimesIndex.name) }) {
        case .success(nil):
            return []
        case .success(let status?) where status.kind == .file:
            // Read through this instance's cache: with writes held back, only what they added since it last read.
            let reader = LifetimesIndexCache.Reader(
                fromOffset: { try folder.read(LifetimesIndex.name, from: $0, ifStartingWith: $1) },
                whole: { try folder.read(LifetimesIndex.name) }
            )
            if let version = status.version, let read = lifetimes.index(version: version, reading: reader) {
                index = read
                rewrites = false
            } else {
                index = LifetimesIndex(naming: try Self.expirations(readingEvery: folder))
                rewrites = true
            }
        case .success, .failure:
            // A folder, a link or another kind of file under the index's name, or one that cannot be looked at: every
            // file tells, and the index stays.
            index = LifetimesIndex(naming: try Self.expirations(readingEvery: folder))
            rewrites = false
            isWritable = false
        }
        // What the reclaim found, as lines that forget files and name their lifetimes again, added to the index.
        var found = Data()
        // How many files `found` forgets, and how many of them it names again.
        var (forgotten, renamed) = (0, 0)
        var removed: [String] = []
        for fileName in index.filesThatMayHaveExpired(by: Self.milliseconds(of: date)) {
            guard removed.count < limit else { break }
            // Not readable, so not known to have expired: left as it is, and named.
            guard
                case .success(let data) = Result(catching: { () throws(FileSystemError) in try folder.read(fileName) })
            else { continue }
            let contents = data.flatMap(ExpiryHeader.read)
            // Gone, or without a lifetime (set again without one, or damaged): no longer named.
            forgotten += 1
            guard let contents, let milliseconds = contents.expiresAtMilliseconds else {
                found += LifetimesIndex.forgetting(fileName: fileName)
                continue
            }
            guard Self.hasExpired(contents, at: date) else {
                // Set again with a later lifetime: named by it alone.
                found += LifetimesIndex.forgetting(fileName: fileName)
                found += LifetimesIndex.entry(fileName: fileName, expiresAtMilliseconds: milliseconds)
                renamed += 1
                continue
            }
            found += LifetimesIndex.forgetting(fileName: fileName)
            // A file of a long key holds its key; one that holds no key of its name is no value of this store.
            guard let key = KeyFileName.key(ofExactName: fileName) ?? longKey(in: contents.body, ofFile: fileName)
            else { continue }
            whenFound(key)
            do {
                if try folder.remove(fileName) { removed.append(key) }
            } catch {
                throw KVStoreError(error, removing: key)
            }
        }
        guard isWritable else { return removed }
        // A failed write or addition leaves the index naming more files than hold a lifetime: still right.
        if rewrites || index.isWorthCompacting(adding: forgotten, renamed: renamed) {
            var updated = index
            _ = updated.add(parsing: found[...])
            let written = LifetimesIndex(naming: updated.expirations)
            try? folder.write(written.contents, as: LifetimesIndex.name)
            if let version = try? folder.status(of: LifetimesIndex.name)?.version {
                lifetimes.remember(written, version: version)
            }
        } else if !found.isEmpty {
            try? folder.append(found, to: LifetimesIndex.name)
        }
        return removed
    }

    /// The files in `folder` whose value has a lifetime, with its expiration date, found by reading every key file.
    ///
    /// For an index written again because it is damaged. A file that cannot be read is named as one that may have
    /// expired from the start, so that readers read it.
    private static func expirations(readingEvery folder: LockedFolder) throws(FileSystemError) -> [String: Int64] {
        var expirations: [String: Int64] = [:]
        for entry in try folder.list() where entry.kind == .file && entry.name.hasSuffix(KeyFileName.fileExtension) {
            do {
                guard let data = try folder.read(entry.name),
                    let milliseconds = ExpiryHeader.read(data)?.expiresAtMilliseconds
                else { continue }
                expirations[entry.name] = milliseconds
            } catch {
                expirations[entry.name] = .min
            }
        }
        return expirations
    }

    /// The key a long key's envelope `body` names, when `fileName` is one of that key's file names.
    private func longKey(in body: Data, ofFile fileName: String) -> String? {
        guard let key = Self.envelopeKey(in: body), KeyFileName(key: key).candidates.contains(fileName) else {
            return nil
        }
        return FileNameEncoding.canonicalForm(of: key)
    }
}
