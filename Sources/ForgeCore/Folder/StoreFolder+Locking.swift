internal import Foundation

// The folder's advisory lock: a store that must be alone in its folder for a while (a vault changing its master key)
// holds it exclusively, and the writes it must exclude hold it shared, each for one write.

extension StoreFolder {
    /// Opens the folder and takes its exclusive advisory lock, waiting for the holders of shared ones (writes in
    /// flight) and of an exclusive one to let go.
    ///
    /// The lock is held until the returned descriptor is closed, when it goes away: keep it alive for as long as the
    /// lock must hold (`withExtendedLifetime`). A process that ends, killed or not, lets its lock go.
    ///
    /// - Throws: `ENOENT` when the folder does not exist, or the error of opening it.
    package func lockExclusively() throws(FileSystemError) -> Descriptor {
        let folder = try openRoot(creating: false)
        _ = folder.lock(exclusive: true, waits: true)
        return folder
    }

    /// Opens the folder and takes a shared advisory lock on it, unless another open holds the exclusive one.
    ///
    /// - Returns: The descriptor that holds the lock until it is closed, or nil when the exclusive lock is held.
    /// - Throws: `ENOENT` when the folder does not exist, or the error of opening it.
    package func lockShared() throws(FileSystemError) -> Descriptor? {
        let folder = try openRoot(creating: false)
        return folder.lock(exclusive: false, waits: false) ? folder : nil
    }

    /// Flushes the files `names`, right in this folder, to the storage device, then the folder's entries.
    ///
    /// For files written without a flush, one after another, that must all be on the device before the next step:
    /// this costs one flush per file and one of the folder, where writing each flushed would cost two per file.
    ///
    /// - Throws: The error of opening or flushing a file, or the folder.
    package func synchronize(_ names: some Sequence<String>) throws(FileSystemError) {
        let folder = try openRoot(creating: false)
        for name in names {
            try folder.openEntry(EntryName(name), .read).synchronize()
        }
        try folder.synchronize()
    }
}
