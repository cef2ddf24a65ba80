package import Foundation

extension StoreFolder {
    /// Writes `data` as the file `name` right in this folder, atomically, after adding `entry` to the end of the index
    /// file `index` beside it: a new index holding `header` and `entry` when the folder has none.
    ///
    /// For a store some of whose files need a slower read that the index spares its readers (`DiskKVStore`'s files of
    /// values with a lifetime, which its `.forge-lifetimes` lists): a file never lands in a folder whose index does not
    /// name it. The entry is added first, the file written after it, both through one descriptor of the folder, so
    /// they land in the same folder even when its path is removed and made again meanwhile (another process's
    /// ``removeAll()``): a folder removed with its index takes the file too, or fails the write, which then starts
    /// again in the new folder. The index is looked for once more after the file is in, and made again, with `entry`,
    /// when the folder was emptied in place meanwhile by a process that does not lock its changes.
    ///
    /// The entry goes on in one `write` to a file opened to append, so entries that writers add at the same time each
    /// land whole, one after another; with the folder's durability `.flushed` the index is flushed before the file is
    /// written. A new index is written like any file (through a temporary file, linked into place), and never replaces
    /// one that another writer made first: the entry is then added to that one. Something under the index's name that
    /// is not a regular file (a folder, a link, a FIFO) is left as it is, and the file written: its readers take it for
    /// a damaged index, which they never trust.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - name: The file's name in this folder.
    ///   - replacing: As for ``write(_:as:in:replacing:)``: when false, the write fails with `EEXIST` if `name` is
    ///     taken.
    ///   - index: The index's name in this folder: a name no file the store writes with `data` has.
    ///   - entry: What to add to the index: one line, its end included.
    ///   - header: What a new index starts with.
    /// - Throws: A ``FileSystemError`` when the folder, the index or the file cannot be written; the entry may then be
    ///   in the index without the file.
    package func write(
        _ data: Data,
        as name: String,
        replacing: Bool = true,
        indexedIn index: String,
        entry: Data,
        header: Data
    ) throws(FileSystemError) {
        var attempts = 0
        while true {
            do throws(FileSystemError) {
                let folder = try openRoot(creating: true)
                lockForChange(folder)
                try write(
                    data,
                    as: name,
                    replacing: replacing,
                    indexedIn: index,
                    entry: entry,
                    header: header,
                    in: folder
                )
                return
            } catch {
                attempts += 1
                // The folder was removed after it was opened: go again, in the folder made at its path.
                if error.isMissing && options.createsFolder && attempts < 8 { continue }
                throw error
            }
        }
    }

    /// Writes `data` as the file `name` in the open `folder`, after adding `entry` to the index file `index` (made
    /// holding `header` when missing): the steps of ``write(_:as:replacing:indexedIn:entry:header:)`` once the folder
    /// is open and locked, which a change under the folder's exclusive lock takes too.
    func write(
        _ data: Data,
        as name: String,
        replacing: Bool,
        indexedIn index: String,
        entry: Data,
        header: Data,
        in folder: Descriptor
    ) throws(FileSystemError) {
        try add(entry, to: index, header: header, in: folder)
        do throws(FileSystemError) {
            try write(data, as: storedName(of: name, in: folder), into: folder, replacing: replacing)
        } catch {
            // A write can fail with its file in place (a `.flushed` write whose folder's flush failed): the index is
            // made again if it went meanwhile, so that no file is left that it does not name.
            if (try? folder.status(of: EntryName(index))) ?? nil == nil {
                try? add(entry, to: index, header: header, in: folder)
            }
            throw error
        }
        if try folder.status(of: EntryName(index)) == nil {
            try add(entry, to: index, header: header, in: folder)
        }
    }

    /// Adds `entry` to the end of the index `name` in the open `folder`, or makes the index, holding `header` and
    /// `entry`, when nothing has that name.
    private func add(_ entry: Data, to name: String, header: Data, in folder: Descriptor) throws(FileSystemError) {
        let index = EntryName(name)
        var attempts = 0
        while true {
            let file: Descriptor
            do {
                file = try folder.openEntry(index, .append)
            } catch  where error.isNotFound {
                do {
                    try write(header + entry, as: index, into: folder, replacing: false)
                    return
                } catch  where error.isAlreadyExists && attempts < 8 {
                    // Another writer made it first (or made it and a removal took it since): add to that one.
                    attempts += 1
                    continue
                }
            } catch {
                // A link, a folder or another kind of file in the index's place: readers never trust it.
                if let status = try? folder.status(of: index), status.kind != .file { return }
                throw error
            }
            // A FIFO or a device planted under the name opens too: it is no index, and readers never trust it.
            _ = try Self.append(entry, to: file, flushed: options.durability == .flushed)
            return
        }
    }

    /// Adds `data` to the end of the open `file` in one `write`, flushes it when `flushed`, and closes it; false, with
    /// nothing written, when the file is not a regular one (a FIFO or a device planted under its name).
    static func append(_ data: Data, to file: Descriptor, flushed: Bool) throws(FileSystemError) -> Bool {
        guard try file.status().kind == .file else { return false }
        try file.writeAll(data)
        if flushed { try file.synchronize() }
        try file.close()
        return true
    }
}
