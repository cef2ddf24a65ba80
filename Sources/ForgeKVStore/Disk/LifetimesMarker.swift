internal import Foundation

/// The file whose presence in a ``DiskKVStore``'s folder says that a value in it may have a lifetime:
/// `.forge-lifetimes`.
///
/// A store that never stored a lifetime pays nothing for lifetimes: while its folder has no marker, `contains` is one
/// open of the folder and two `stat`s (the marker's, the key file's), ``DiskKVStore/keys()`` a `stat` and a listing,
/// and a reclaim one `stat`, none of which reads a key file. A value with a
/// lifetime is only ever written into a folder seen to hold the marker (``StoreFolder``'s marked write: the marker
/// first, through the same descriptor of the folder as the value, looked for again after it), so a file with an
/// `ExpiryHeader` never stands in a folder without one but for an instant; once written the marker stays until
/// ``DiskKVStore/removeAll()`` removes the folder with it.
///
/// Why a reader that finds no marker may skip the headers, whatever other instances and processes do at the same time:
/// - A lifetime written elsewhere makes the marker before its file. A reader whose check found no marker can therefore
///   count as live (by `contains` or `keys()`) only a value written after its check began, one as fresh as if the
///   listing had run first, which is live unless it was written with a date already past; `get`, which always reads
///   the file, reads it as expired. A reclaim that found no marker removes nothing, which is what it would have done
///   had it run first.
/// - `removeAll()` removes the folder with the marker and every file in it at once; a lifetime write that ran into it
///   starts again in the new folder, marker first. A folder that is a link is emptied in place instead, and the write
///   looks for the marker once more after its file is in, and puts it back.
/// - Files written by versions of the library older than lifetimes never have a header, so a folder they wrote needs
///   no marker.
/// - Anything under the marker's name, or a `stat` that fails other than for "nothing there", counts as a marker: the
///   long way is always right, only slower.
///
/// There is no per-instance cache of "the marker is there": another process's `removeAll()` would make it wrong, and a
/// value with a lifetime written without the marker after that would never expire for readers that trust its absence.
/// Each write of a lifetime pays one `stat` of the marker before its file and one after, through the folder it already
/// has open; a write without a lifetime pays nothing.
///
/// The name ends in no `.json`, so no key file has it and every listing of keys skips it (``DiskKVStore/keys()``,
/// reclaims, the folder watch of streams); it is not a temporary name, so the leftover sweep leaves it.
enum LifetimesMarker {
    /// The marker's name in the namespace folder.
    static let name = ".forge-lifetimes"

    /// What the marker holds: a line for whoever looks into the folder.
    static let contents = Data("Values in this folder may have lifetimes: their files start with #expires.\n".utf8)
}
