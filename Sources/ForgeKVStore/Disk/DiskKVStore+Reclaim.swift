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
        var expirations: [String: Int64]
        // Whether the index is to be written again, and whether it may be: not when something else has its name.
        var changed: Bool
        var isWritable = true
        switch Result(catching: { () throws(FileSystemError) in try folder.read(LifetimesIndex.name) }) {
        case .success(nil):
            return []
        case .success(let data?):
            if let index = LifetimesIndex(parsing: data) {
                expirations = index.expirations
                changed = index.isWorthCompacting
            } else {
                expirations = try Self.expirations(readingEvery: folder)
                changed = true
            }
        case .failure:
            // A folder, a link or an unreadable file under the index's name: every file tells, and the index stays.
            expirations = try Self.expirations(readingEvery: folder)
            changed = false
            isWritable = false
        }
        var removed: [String] = []
        let mayHaveExpired = LifetimesIndex(naming: expirations)
            .filesThatMayHaveExpired(by: Self.milliseconds(of: date))
        for fileName in mayHaveExpired {
            guard removed.count < limit else { break }
            // Not readable, so not known to have expired: left as it is, and named.
            guard
                case .success(let data) = Result(catching: { () throws(FileSystemError) in try folder.read(fileName) })
            else { continue }
            let contents = data.flatMap(ExpiryHeader.read)
            // Gone, or without a lifetime (set again without one, or damaged): no longer named.
            guard let contents, let milliseconds = contents.expiresAtMilliseconds else {
                expirations[fileName] = nil
                changed = true
                continue
            }
            guard Self.hasExpired(contents, at: date) else {
                // Set again with a later lifetime: named by it.
                if expirations[fileName] != milliseconds { changed = true }
                expirations[fileName] = milliseconds
                continue
            }
            expirations[fileName] = nil
            changed = true
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
        if changed && isWritable {
            // A failed write keeps the index as it was, which names more files than hold a lifetime: still right.
            try? folder.write(LifetimesIndex(naming: expirations).contents, as: LifetimesIndex.name)
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
