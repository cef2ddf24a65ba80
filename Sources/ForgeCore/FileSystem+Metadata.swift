package import Foundation

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
@preconcurrency internal import Glibc
#elseif canImport(Musl)
@preconcurrency internal import Musl
#elseif canImport(Android)
@preconcurrency internal import Android
#endif

extension FileSystem {
    /// What the inspection APIs show of a file: its size and when it was last written.
    package struct Metadata: Sendable, Equatable {
        /// The file's size in bytes.
        package var size: Int
        /// When the file's contents last changed.
        package var modificationDate: Date
    }

    /// The size and modification date of the regular file at `path`, without following a final symbolic
    /// link; nil when no regular file is there.
    package static func metadata(atPath path: String) throws(FileSystemError) -> Metadata? {
        guard let info = try status(atPath: path), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let seconds = Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        return Metadata(size: Int(info.st_size), modificationDate: Date(timeIntervalSince1970: seconds))
    }
}
