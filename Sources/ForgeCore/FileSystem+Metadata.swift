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
}

extension FileSystem.Metadata {
    /// The size and modification date in a file's status.
    init(_ info: stat) {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let seconds = Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        self.init(size: Int(info.st_size), modificationDate: Date(timeIntervalSince1970: seconds))
    }
}
