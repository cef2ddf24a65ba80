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
        var rewrites: Bool
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
                // A last line without its end, with every writer held back, is one a writer that crashed cut short.
                rewrites = Int64(read.length) < version.size
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
        var found = Found()
        var removed: [String] = []
        do {
            // Files set again with a later lifetime are read and named again, but not without end: each is read once
            // more only when a reclaim finds it again.
            let mayHaveExpired = index.filesThatMayHaveExpired(by: Self.milliseconds(of: date))
            for fileName in mayHaveExpired.prefix(Self.filesReadPerReclaim(limit: limit)) {
                guard removed.count < limit else { break }
                // Not readable, so not known to have expired: left as it is, and named.
                guard
                    case .success(let data) = Result(catching: { () throws(FileSystemError) in
                        try folder.read(fileName)
                    })
                else { continue }
                // Gone, or without a lifetime (set again without one, or damaged): no longer named.
                guard let contents = data.flatMap(ExpiryHeader.read), let milliseconds = contents.expiresAtMilliseconds
                else {
                    found.forget(fileName)
                    continue
                }
                guard Self.hasExpired(contents, at: date) else {
                    // Set again with a later lifetime: named by it alone.
                    found.forget(fileName, namingAgainUntil: milliseconds)
                    continue
                }
                // A file of a long key holds its key; one that holds no key of its name is no value of this store.
                guard let key = KeyFileName.key(ofExactName: fileName) ?? longKey(in: contents.body, ofFile: fileName)
                else {
                    found.forget(fileName)
                    continue
                }
                whenFound(key)
                do {
                    if try folder.remove(fileName) { removed.append(key) }
                } catch {
                    throw KVStoreError(error, removing: key)
                }
                found.forget(fileName)
            }
        } catch {
            // What was found before the failure is kept, so that a file that cannot be removed does not hold back
            // what the reclaims after it learn.
            if isWritable { record(found, in: index, of: folder, rewriting: rewrites, removedFiles: !removed.isEmpty) }
            throw error
        }
        if isWritable { record(found, in: index, of: folder, rewriting: rewrites, removedFiles: !removed.isEmpty) }
        return removed
    }

    /// How many files that may have expired one reclaim of up to `limit` values reads, at most.
    private static func filesReadPerReclaim(limit: Int) -> Int {
        max(limit, 1) * 8
    }

    /// What a reclaim found of the files the index names: lines that forget files, and name some again.
    private struct Found {
        /// The lines, as they are added to the index.
        var lines = Data()
        /// How many files the lines forget, and how many of those they name again.
        var forgotten = 0
        var renamed = 0

        /// Forgets `fileName`: removed, gone, or without a lifetime.
        mutating func forget(_ fileName: String) {
            lines += LifetimesIndex.forgetting(fileName: fileName)
            forgotten += 1
        }

        /// Forgets `fileName`'s lines, then names it with the lifetime its file holds now, until `milliseconds`.
        mutating func forget(_ fileName: String, namingAgainUntil milliseconds: Int64) {
            forget(fileName)
            lines += LifetimesIndex.entry(fileName: fileName, expiresAtMilliseconds: milliseconds)
            renamed += 1
        }
    }

    /// Adds what a reclaim `found` to `folder`'s index, read as `index`, or writes the index again, whole, when
    /// `rewriting` or when it has grown to more than twice the lines its files need.
    ///
    /// When the reclaim removed files (`removedFiles`) of a `.flushed` folder, the folder is flushed first, so that no
    /// line forgets a removal a power loss could undo. A failed write or addition leaves the index naming more files
    /// than hold a lifetime, which is still right; a whole index is flushed before it is renamed into place, whatever
    /// the durability, since a power loss could otherwise cut it and lose lines that were kept before.
    private func record(
        _ found: Found,
        in index: LifetimesIndex,
        of folder: LockedFolder,
        rewriting: Bool,
        removedFiles: Bool
    ) {
        if removedFiles { try? folder.synchronizeIfFlushed() }
        if rewriting || index.isWorthCompacting(adding: found.forgotten, renamed: found.renamed) {
            var updated = index
            _ = updated.add(parsing: found.lines[...])
            let written = LifetimesIndex(naming: updated.expirations)
            if (try? folder.writeFlushed(written.contents, as: LifetimesIndex.name)) != nil,
                let version = try? folder.status(of: LifetimesIndex.name)?.version
            {
                lifetimes.remember(written, version: version)
            }
        } else if !found.lines.isEmpty {
            try? folder.append(LifetimesIndex.addition(found.lines), to: LifetimesIndex.name)
        }
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
