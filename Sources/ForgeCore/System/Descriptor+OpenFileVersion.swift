internal import Foundation

/// What one `fstat` of an open file tells of whether it changed since an earlier one: its ``FileVersion`` (which file,
/// its size and modification time), when its status last changed, and how many names link to it.
///
/// The status-change time moves with every write, rename, link, removal or change of attributes, and no call can set
/// it; the number of names falls to 0 when the file is removed, or replaced by a rename over its name. So while a
/// ``Descriptor`` holds a file open, an equal version read from it tells that the file at its path is still the one
/// opened, with the same contents, without looking the path up again (a lookup costs most of a `stat`, and an `fstat`
/// makes none). It cannot tell what a clock tick hides, as a ``FileVersion`` cannot, nor that a folder on the path was
/// renamed or replaced.
package struct OpenFileVersion: Sendable, Hashable {
    /// The file, its size and its modification time.
    package var version: FileVersion
    /// The seconds of the last change of the file's status, since 1970.
    package var statusChangeSeconds: Int64
    /// The nanoseconds of the last change of the file's status, past its seconds.
    package var statusChangeNanoseconds: Int64
    /// How many names link to the file: 0 once it was removed or replaced.
    package var links: UInt64

    /// A version from its parts.
    package init(version: FileVersion, statusChangeSeconds: Int64, statusChangeNanoseconds: Int64, links: UInt64) {
        self.version = version
        self.statusChangeSeconds = statusChangeSeconds
        self.statusChangeNanoseconds = statusChangeNanoseconds
        self.links = links
    }
}

#if canImport(Darwin)
/// The `tv_nsec` that has `utimensat` leave a time as it is.
private let omittedTime = UTIME_OMIT
#else
/// The `tv_nsec` that has `utimensat` leave a time as it is: `UTIME_OMIT`, a macro Swift does not import from Glibc.
private let omittedTime = (1 << 30) - 2
#endif

// The two calls `UserDefaultsKVStore` needs on Linux to tell from one system call whether a property list changed,
// beside the other calls of `Descriptor` in the `Descriptor*.swift` files of this folder.
extension Descriptor {
    /// The open file's ``OpenFileVersion``, from one `fstat`.
    package func openFileVersion() throws(FileSystemError) -> OpenFileVersion {
        var info = stat()
        guard systemCall(.status, on: path, { fstat(fd, &info) }) == 0 else {
            throw FileSystemError(.stat, path: path, code: errno)
        }
        #if canImport(Darwin)
        let statusChange = info.st_ctimespec
        #else
        let statusChange = info.st_ctim
        #endif
        return OpenFileVersion(
            version: FileVersion(info),
            statusChangeSeconds: Int64(statusChange.tv_sec),
            statusChangeNanoseconds: Int64(statusChange.tv_nsec),
            links: UInt64(info.st_nlink)
        )
    }

    /// Sets the modification time of the file at `path` (a link followed) to `seconds` and `nanoseconds` since 1970,
    /// leaving its access time as it is.
    package static func setModificationTime(
        ofFileAt path: String,
        seconds: Int64,
        nanoseconds: Int64
    ) throws(FileSystemError) {
        let times = [
            timespec(tv_sec: 0, tv_nsec: Int(omittedTime)),
            timespec(tv_sec: time_t(seconds), tv_nsec: Int(nanoseconds)),
        ]
        guard systemCall(.setTimes, on: path, { utimensat(AT_FDCWD, path, times, 0) }) == 0 else {
            throw FileSystemError(.setAttributes, path: path, code: errno)
        }
    }
}
