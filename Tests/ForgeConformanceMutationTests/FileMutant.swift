import Testing

/// A realistic way to break a ``FileStoring``, each a few lines switched on in ``FileReferenceStore``, and the check
/// of `FileStoringConformance` that kills it.
enum FileMutant: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// No lock around a save: it writes the first half, then the whole, each under the lock, so a reader can load
    /// half. Killed by "a read while another thread writes back-to-back sees a whole value".
    case savesInTwoSteps
    /// `overwrite: false` checks for the file and saves it in two locked sections, so two saves can both win.
    /// Killed by "saves without overwrite from four threads never both win".
    case checksThenSaves
    /// A save rewrites a copy of all the files (read under the lock, written back under it), dropping concurrent
    /// saves. Killed by "writes from four threads at once all land".
    case savesACopyOfEverything
    /// `deleteAll` clears the whole backing, every namespace in it. Killed by "deleteAll leaves a neighbour's files
    /// alone".
    case deleteAllClearsTheBacking
    /// `list(in:)` lists the files of every namespace on the backing. Killed by "deleteAll leaves a neighbour's
    /// files alone", which lists the store beside its neighbour.
    case listsNeighbours
    /// `A.txt` and `a.txt` are one file. Killed by "names that differ only in case are two files, unless the store
    /// folds case".
    case foldsCase
    /// `deleteAll` leaves the files whose name starts with a dot. Killed by "names that start with a dot are
    /// listed, counted and deleted like any other".
    case deleteAllLeavesDotFiles
    /// `deleteAll` leaves the files whose path holds a space, a `:` or a character outside ASCII, as a store that
    /// deletes what a pattern of plain names matches. Killed by "deleteAll clears everything and the store stays
    /// usable", which saves the names the other checks use.
    case deleteAllLeavesUnusualNames
    /// `totalSize` does not count the files whose name starts with a dot. Killed by the dot-name check.
    case totalSizeSkipsDotFiles
    /// `list` hides the entries whose name starts with a dot. Killed by the dot-name check.
    case listHidesDotFiles
    /// Deleting the last file of a folder leaves the empty folder, still listed. Killed by "deleting the last file of
    /// a folder removes the folder".
    case deleteLeavesEmptyFolders
    /// `list` returns the entries in no particular order. Killed by "list shows the direct entries sorted, folders
    /// ending in a slash".
    case listsUnsorted
    /// `list` shows folders without their trailing `/`. Killed by the list check.
    case listsFoldersWithoutSlash
    /// `list(in: "docs")` matches every path that starts with `docs`, such as `docs-old/x`. Killed by the list check.
    case listMatchesNamePrefixes
    /// `exists` is true for folders too. Killed by "exists tells files from folders and missing paths".
    case existsForFolders
    /// `save(overwrite: false)` replaces an existing file. Killed by "save without overwrite refuses an existing
    /// file and keeps it".
    case ignoresOverwriteFalse
    /// A save over a folder replaces it with a file, so a path is a file and a folder at once. Killed by "a path is
    /// never a file and a folder at once".
    case savesOverFolders
    /// `load` of a missing file returns empty data rather than throwing `notFound`. Killed by "load of a missing file
    /// throws notFound".
    case loadsMissingAsEmpty
    /// Paths are kept as spelled, so an NFD spelling is another file than the NFC one. Killed by "canonically
    /// equivalent spellings name one file".
    case keepsSpellings
    /// Each handle caches what it loaded and saved. Killed by "a second handle sees every change at once".
    case cachesInTheHandle
    /// A save over a file keeps the first save's modification date, which `fileInfo(at:)` and `allFiles()` report.
    /// Killed by "an overwrite dates the file anew, in fileInfo and allFiles".
    case keepsTheFirstSaveDate
    /// `..` names are accepted. Killed by "invalid paths are refused and nothing is touched".
    case acceptsDotDot

    var testDescription: String { rawValue }

    /// The mutants that only a race shows: the thread checks catch each in every run (see `RaceGate`).
    static let races: [FileMutant] = [.savesInTwoSteps, .checksThenSaves, .savesACopyOfEverything]
}
