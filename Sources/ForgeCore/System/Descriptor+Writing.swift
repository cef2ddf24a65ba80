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

// Writing an open file: its data, its flush to the device, its permissions, a counter in it, its lock.

extension Descriptor {
    /// Writes all of `data` at the file's current position.
    package func writeAll(_ data: Data) throws(FileSystemError) {
        var written = 0
        while written < data.count {
            // `write` reads the bytes in place, so it takes their address.
            let result = data.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if result >= 0 { written += result } else if errno != EINTR { throw .current(.write, path: path) }
        }
    }

    /// Flushes the file's data, or the folder's entries, to the storage device: `F_FULLFSYNC` on Apple
    /// platforms, where `fsync` stops at the drive's cache.
    package func synchronize() throws(FileSystemError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw .current(.sync, path: path) }
    }

    /// Sets the permission bits of the open file or folder.
    package func setPermissions(_ permissions: UInt16) throws(FileSystemError) {
        guard fchmod(fd, mode_t(permissions)) == 0 else { throw .current(.setAttributes, path: path) }
    }

    /// Replaces the counter ``readCounter(at:)`` reads at `offset` with `value`.
    package func writeCounter(_ value: UInt64, at offset: Int) throws(FileSystemError) {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        var result = 0
        repeat {
            // `pwrite` reads the bytes in place, so it takes their address.
            result = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, 8, off_t(offset)) }
        } while result < 0 && errno == EINTR
        guard result == 8 else { throw .current(.write, path: path) }
    }

    /// Runs `body` while this process holds an exclusive advisory lock (`flock`) on the open file.
    package func withExclusiveLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}  // EINTR only interrupts the wait.
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
