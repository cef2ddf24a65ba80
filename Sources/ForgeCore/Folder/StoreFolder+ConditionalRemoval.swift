package import Foundation

extension StoreFolder {
    /// Removes the regular file `name` right in this folder when `accepts` its contents, and never a file written
    /// in its place after `accepts` looked: returns whether it removed it.
    ///
    /// A check, then an unlink, would remove a file another process wrote between the two. So the file is read and
    /// checked; when accepted, it is renamed to a temporary name (``TemporaryName``) and the file now under that
    /// name, whichever write it holds, is read and checked again. Accepted again, it is removed. Refused (a new write
    /// landed before the rename), it is put back by a link that fails when the name is taken, so an even newer
    /// write that landed meanwhile is kept and the file taken away is dropped.
    ///
    /// Between the rename and the link back, a refused file is missing from its name: a reader at that instant finds
    /// nothing. A crash in that window leaves the file under its temporary name, which the next leftover sweep of
    /// another process removes. `accepts` is called once or twice and must be cheap; it runs with no lock held.
    ///
    /// - Parameters:
    ///   - name: The file's name in this folder (a name stored in NFD is found by its NFC spelling).
    ///   - accepts: Whether contents that were read may be removed.
    /// - Returns: True when the file was removed; false when there is none (or no folder), or it was refused.
    /// - Throws: A ``FileSystemError`` when the file cannot be read, renamed, removed or put back; a folder or a
    ///   symbolic link in its place fails the read (`EISDIR`, `ELOOP`) and stays.
    package func remove(_ name: String, if accepts: (Data) -> Bool) throws(FileSystemError) -> Bool {
        let folder: Descriptor
        do {
            folder = try openRoot(creating: false)
        } catch  where error.isNotFound {
            return false
        }
        let stored = storedName(of: name, in: folder)
        options.accessLog?.recordRead()
        guard let contents = try Self.readIfPresent(stored, in: folder), accepts(contents) else { return false }

        let taken = EntryName(TemporaryName.make(for: stored.string))
        do {
            try folder.rename(stored, to: taken)
        } catch  where error.isMissing {
            // Removed by someone else since it was read: nothing left to remove.
            return false
        }
        let renamed: Data?
        options.accessLog?.recordRead()
        do {
            renamed = try Self.readIfPresent(taken, in: folder)
        } catch {
            try? restore(taken, as: stored, in: folder)
            throw error
        }
        guard let renamed else { return false }
        guard accepts(renamed) else {
            try restore(taken, as: stored, in: folder)
            return false
        }
        do {
            try folder.remove(taken, kinds: [.file])
        } catch  where error.isMissing {}
        return true
    }

    /// Puts the file `taken` back as `name`, unless `name` is taken by a newer write: then `taken` is dropped.
    private func restore(_ taken: EntryName, as name: EntryName, in folder: Descriptor) throws(FileSystemError) {
        do {
            try folder.link(taken, as: name)
        } catch  where error.isAlreadyExists {
            // A newer write holds the name: it wins over the one taken away.
        } catch  where error.isMissing {
            return
        }
        if options.durability == .flushed { try? folder.synchronize() }
        do {
            try folder.remove(taken, kinds: [.file])
        } catch  where error.isMissing {}
    }

    /// The contents of the regular file `name` in the open `folder`; nil when nothing is there.
    private static func readIfPresent(_ name: EntryName, in folder: Descriptor) throws(FileSystemError) -> Data? {
        do {
            return try folder.openEntry(name, .read).readAll()
        } catch  where error.isMissing {
            return nil
        }
    }
}
