package import Foundation

extension StoreFolder {
    /// Writes `data` as the file `name` right in this folder, atomically, into a folder that holds the file `marker`:
    /// when the folder has no marker, `markerContents` are written as one first.
    ///
    /// For a store some of whose files need a slower read that only a folder with the marker pays (`DiskKVStore`'s
    /// files of values with a lifetime): a reader that finds no marker may take the short way. The marker is looked for (one `stat`), and both files written, through one descriptor of the folder, so they land
    /// in the same folder even when its path is removed and made again meanwhile (another process's ``removeAll()``):
    /// the file never lands in a folder that was not seen to hold the marker, and a folder removed with its marker
    /// takes the file too, or fails the write, which then starts again in the new folder. The marker is looked for once
    /// more after the file is in, and written again when the folder was emptied in place meanwhile (``removeAll()`` of
    /// a folder that is a link). Anything under the marker's name (a folder, a link) counts as the marker. The marker is
    /// written like any file, flushed when the folder's durability is `.flushed`, and never replaces one that another
    /// writer made first.
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - name: The file's name in this folder.
    ///   - replacing: As for ``write(_:as:in:replacing:)``: when false, the write fails with `EEXIST` if `name` is
    ///     taken.
    ///   - marker: The marker's name in this folder: a name no file the store writes with `data` has.
    ///   - markerContents: What a new marker holds.
    /// - Throws: A ``FileSystemError`` when the folder, the marker or the file cannot be written; the marker may then be
    ///   there without the file.
    package func write(
        _ data: Data,
        as name: String,
        replacing: Bool = true,
        besideMarker marker: String,
        holding markerContents: Data
    ) throws(FileSystemError) {
        var attempts = 0
        while true {
            do {
                let folder = try openRoot(creating: true)
                lockForChange(folder)
                try ensureMarker(marker, holding: markerContents, in: folder)
                try write(data, as: storedName(of: name, in: folder), into: folder, replacing: replacing)
                try ensureMarker(marker, holding: markerContents, in: folder)
                return
            } catch {
                attempts += 1
                // The folder was removed after it was opened: go again, in the folder made at its path.
                if error.isMissing && options.createsFolder && attempts < 8 { continue }
                throw error
            }
        }
    }

    /// Writes the marker `name`, holding `contents`, into the open `folder` unless something has that name.
    private func ensureMarker(_ name: String, holding contents: Data, in folder: Descriptor) throws(FileSystemError) {
        let marker = EntryName(name)
        guard try folder.status(of: marker) == nil else { return }
        do {
            try write(contents, as: marker, into: folder, replacing: false)
        } catch  where error.isAlreadyExists {
            // Another writer made it first.
        }
    }
}
