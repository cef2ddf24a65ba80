package import Foundation

extension StoreFolder {
    /// Runs `body` with this folder open under its exclusive advisory lock; nil, running nothing, without a folder.
    ///
    /// Every write and remove of a store whose folder locks its changes (``Options/locksChanges``) waits for the
    /// lock: nothing in the folder changes meanwhile but what `body` changes. For a change made of several steps that
    /// must see one state of the folder: `DiskKVStore`'s reclaim, which reads its index of lifetimes, removes the files
    /// that expired and adds to the index. A process of a library version that did not lock its changes is not held
    /// back. Keep `body` short: every writer waits.
    ///
    /// With `creatingFolder`, a missing folder is made first (and `body` always runs). With `requiringLock`, a system
    /// that cannot lock the folder (some network volumes) fails the call, where otherwise `body` runs unlocked: for a
    /// change that is only right under the lock.
    ///
    /// - Throws: The error of opening or, with `requiringLock`, of locking the folder, or what `body` throws.
    package func withExclusiveLock<Result>(
        creatingFolder: Bool = false,
        requiringLock: Bool = false,
        _ body: (LockedFolder) throws -> Result
    ) throws -> Result? {
        // A `Result` rather than a `catch where` on `creatingFolder`: Swift 6.3's SIL pass crashes on that pattern here.
        let opened: Swift.Result<Descriptor, FileSystemError> = Swift.Result { () throws(FileSystemError) in
            try openRoot(creating: creatingFolder)
        }
        if case .failure(let error) = opened, error.isNotFound, !creatingFolder { return nil }
        let folder = try opened.get()
        if requiringLock {
            try folder.lockExclusivelyOrThrow()
        } else {
            _ = folder.lock(exclusive: true, waits: true)
        }
        return try body(LockedFolder(store: self, descriptor: folder))
    }
}

/// A ``StoreFolder`` open under its exclusive advisory lock, for the time of ``StoreFolder/withExclusiveLock(_:)``: the
/// files right in it, read, listed, removed and written through the descriptor that holds the lock.
package struct LockedFolder {
    /// The folder, for its options and the names it stores.
    fileprivate let store: StoreFolder
    /// The open folder that holds the lock.
    fileprivate let descriptor: Descriptor

    /// The regular file `name`; nil when nothing has that name.
    ///
    /// A folder or a link in its place fails the read (`EISDIR`, `ELOOP`).
    package func read(_ name: String) throws(FileSystemError) -> Data? {
        store.options.accessLog?.recordRead(of: name)
        do {
            return try descriptor.openEntry(store.storedName(of: name, in: descriptor), .read).readAll()
        } catch  where error.isMissing {
            return nil
        }
    }

    /// The regular file `name` from `offset` to its end, when it starts with `prefix`; nil when it does not.
    ///
    /// As ``StoreFolder/read(_:from:ifStartingWith:)`` reads it.
    package func read(_ name: String, from offset: Int, ifStartingWith prefix: Data) throws(FileSystemError) -> Data? {
        store.options.accessLog?.recordRead(of: name)
        return try descriptor.openEntry(store.storedName(of: name, in: descriptor), .read)
            .readAll(from: offset, ifStartingWith: prefix)
    }

    /// The status of `name`, a link not followed; nil when nothing has that name.
    package func status(of name: String) throws(FileSystemError) -> FileStatus? {
        try descriptor.status(of: store.storedName(of: name, in: descriptor))
    }

    /// Removes the regular file `name`; false when there is none.
    ///
    /// Anything else in its place fails and stays.
    package func remove(_ name: String) throws(FileSystemError) -> Bool {
        do {
            try descriptor.remove(store.storedName(of: name, in: descriptor), kinds: [.file])
            return true
        } catch  where error.isMissing {
            return false
        }
    }

    /// Writes `data` as the file `name`, atomically, replacing the file there, flushed (the file before it is renamed
    /// into place, then the folder) whatever the folder's durability: for a file whose loss or truncation at a power
    /// loss would lose more than the write itself.
    package func writeFlushed(_ data: Data, as name: String) throws(FileSystemError) {
        try store.write(
            data,
            as: store.storedName(of: name, in: descriptor),
            into: descriptor,
            replacing: true,
            durability: .flushed
        )
    }

    /// Writes `data` as the file `name`, atomically, replacing the file there (a link in its place included), flushed
    /// as the folder's durability says; with an `index`, after adding its entry to that index file (made holding its
    /// header when missing), as ``StoreFolder/write(_:as:replacing:indexedIn:entry:header:)`` does.
    package func write(
        _ data: Data,
        as name: String,
        indexedIn index: (name: String, entry: Data, header: Data)?
    ) throws(FileSystemError) {
        guard let index else {
            try store.write(data, as: store.storedName(of: name, in: descriptor), into: descriptor, replacing: true)
            return
        }
        try store.write(
            data,
            as: name,
            replacing: true,
            indexedIn: index.name,
            entry: index.entry,
            header: index.header,
            in: descriptor
        )
    }

    /// Adds `data` to the end of the regular file `name`, in one `write`, flushed when the folder's durability is
    /// `.flushed`.
    ///
    /// - Throws: `EINVAL` when the name holds another kind of file than a regular one (a FIFO, a device), which is
    ///   left as it is; the error of opening or writing it.
    package func append(_ data: Data, to name: String) throws(FileSystemError) {
        let path = store.storedName(of: name, in: descriptor)
        let file = try descriptor.openEntry(path, .append)
        guard try StoreFolder.append(data, to: file, flushed: store.options.durability == .flushed) else {
            throw FileSystemError(.write, path: descriptor.child(path), code: EINVAL)
        }
    }

    /// Flushes the folder's entries (the files removed and renamed in it) to the storage device, when the folder's
    /// durability is `.flushed`; nothing otherwise.
    package func synchronizeIfFlushed() throws(FileSystemError) {
        guard store.options.durability == .flushed else { return }
        try descriptor.synchronize()
    }

    /// The files and folders in the folder, as ``StoreFolder/list(in:)`` lists them.
    package func list() throws(FileSystemError) -> [FolderEntry] {
        store.options.accessLog?.recordListing()
        return try StoreFolder.listing(of: descriptor)
    }
}
