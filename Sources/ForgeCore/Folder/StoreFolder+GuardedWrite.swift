package import Foundation

extension StoreFolder {
    /// What ``write(_:as:ifFileNamed:accepts:)`` found.
    package enum GuardedWrite: Sendable, Equatable {
        /// The guard file was accepted and the file written.
        case written
        /// The folder holds no guard file; nothing was written.
        case guardMissing
        /// The guard file was refused; nothing was written.
        case guardRejected
        /// Another open of the folder holds its exclusive lock (``lockExclusively()``); nothing was written.
        case locked
    }

    /// Writes `data` as the file `name` right in this folder, atomically, when the file `guardName` beside it is
    /// there and `accepts` its contents, before the write and after it.
    ///
    /// The guard is read, and the file written, through one descriptor of the folder: both see the same folder
    /// even when its path is removed or replaced meanwhile, so a folder removed since it was opened fails the write
    /// (`ENOENT`) rather than the file landing in a new folder at the same path. The guard is read again once the
    /// file is in place: if it changed meanwhile (the folder was emptied and given another guard), the file is
    /// removed again and the write reports the guard it found. The folder is never created; neither file may be a
    /// symbolic link.
    ///
    /// The write holds a shared lock of the folder from the first check to the last: while another open holds the
    /// exclusive lock (``lockExclusively()``), nothing is written and the write reports ``GuardedWrite/locked``.
    package func write(
        _ data: Data,
        as name: String,
        ifFileNamed guardName: String,
        accepts: (Data) -> Bool
    ) throws(FileSystemError) -> GuardedWrite {
        let folder = try openRoot(creating: false)
        guard folder.lock(exclusive: false, waits: false) else { return .locked }
        let before = try check(guardName, in: folder, accepts: accepts)
        guard before == .written else { return before }
        try write(data, as: EntryName(name), into: folder, replacing: true)
        let after = try check(guardName, in: folder, accepts: accepts)
        if after != .written { try? folder.remove(EntryName(name), kinds: [.file]) }
        return after
    }

    /// Reads the guard file `name` in the open `folder`: `.written` stands for "accepted".
    private func check(
        _ name: String,
        in folder: Descriptor,
        accepts: (Data) -> Bool
    ) throws(FileSystemError) -> GuardedWrite {
        let contents: Data
        options.accessLog?.recordRead(of: name)
        do {
            contents = try folder.openEntry(EntryName(name), .read).readAll()
        } catch  where error.isMissing {
            return .guardMissing
        }
        return accepts(contents) ? .written : .guardRejected
    }
}
