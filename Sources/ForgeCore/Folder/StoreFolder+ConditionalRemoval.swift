package import Foundation

extension StoreFolder {
    /// Removes the regular file `name` right in this folder when `accepts` its contents, and never a file written
    /// in its place after `accepts` looked: returns whether it removed it.
    ///
    /// The check and the removal hold the folder's exclusive advisory lock (`flock`), which every write and remove of
    /// a store whose folder locks its changes (``Options/locksChanges``) waits for: no file of the folder changes
    /// between the two, so neither a newer write is removed nor a removal undone. A process of a library version
    /// that did not lock its changes is not held back. `accepts` runs with the lock held and must be cheap.
    ///
    /// - Parameters:
    ///   - name: The file's name in this folder (a name stored in NFD is found by its NFC spelling).
    ///   - accepts: Whether contents that were read may be removed.
    /// - Returns: True when the file was removed; false when there is none (or no folder), or it was refused.
    /// - Throws: A ``FileSystemError`` when the file cannot be read or removed; a folder or a symbolic link in its
    ///   place fails the read (`EISDIR`, `ELOOP`) and stays.
    package func remove(_ name: String, if accepts: (Data) -> Bool) throws(FileSystemError) -> Bool {
        let folder: Descriptor
        do {
            folder = try openRoot(creating: false)
        } catch  where error.isNotFound {
            return false
        }
        _ = folder.lock(exclusive: true, waits: true)
        let stored = storedName(of: name, in: folder)
        options.accessLog?.recordRead(of: name)
        guard let contents = try Self.readIfPresent(stored, in: folder), accepts(contents) else { return false }
        do {
            try folder.remove(stored, kinds: [.file])
        } catch  where error.isMissing {
            return false
        }
        return true
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
