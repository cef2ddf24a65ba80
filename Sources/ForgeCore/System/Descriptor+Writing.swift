package import Foundation

// Writing an open file: its data, its flush to the device, its permissions, a counter in it, its locks.

extension Descriptor {
    /// Writes all of `data` at the file's current position.
    package func writeAll(_ data: Data) throws(FileSystemError) {
        try transferAll(data.count) { written, count in
            // `write` reads the bytes in place, so it takes their address.
            data.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, count) }
        }
    }

    /// Moves `total` bytes with `transfer`, given how many moved so far and how many to move, until all have: a
    /// transfer cut short goes on from where it stopped, one interrupted by a signal is made again.
    private func transferAll(_ total: Int, _ transfer: (_ moved: Int, _ count: Int) -> Int) throws(FileSystemError) {
        var moved = 0
        while moved < total {
            let result = systemCall(.write, on: path, count: total - moved) { transfer(moved, $0) }
            if result > 0 {
                moved += result
            } else if result == 0 {
                // No byte moved and no error: a volume that takes nothing more, which would loop here for ever.
                throw FileSystemError(.write, path: path, code: EIO)
            } else if errno != EINTR {
                throw .current(.write, path: path)
            }
        }
    }

    /// Flushes the file's data, or the folder's entries, to the storage device: `F_FULLFSYNC` on Apple
    /// platforms, where `fsync` stops at the drive's cache.
    package func synchronize() throws(FileSystemError) {
        let result = systemCall(.sync, on: path) {
            #if canImport(Darwin)
            if fcntl(fd, F_FULLFSYNC) == 0 { return 0 }
            #endif
            return fsync(fd)
        }
        guard result == 0 else { throw .current(.sync, path: path) }
    }

    /// Sets the permission bits of the open file or folder.
    package func setPermissions(_ permissions: UInt16) throws(FileSystemError) {
        guard systemCall(.setPermissions, on: path, { fchmod(fd, mode_t(permissions)) }) == 0 else {
            throw .current(.setAttributes, path: path)
        }
    }

    /// Replaces the counter ``readCounter(at:)`` reads at `offset` with `value`.
    package func writeCounter(_ value: UInt64, at offset: Int) throws(FileSystemError) {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        try transferAll(bytes.count) { written, count in
            // `pwrite` reads the bytes in place, so it takes their address.
            bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress.map { $0 + written }, count, off_t(offset + written)) }
        }
    }

    /// Takes an advisory lock (`flock`) on the open file or folder, held until it is closed (or the process ends,
    /// killed or not).
    ///
    /// An exclusive lock excludes every other lock of the file; a shared one only an exclusive one. Another open of
    /// the same file conflicts even in this process. A system that cannot lock the file (some network volumes) is
    /// taken as granting the lock: advisory locks there only narrow a race.
    ///
    /// - Parameters:
    ///   - exclusive: Whether the lock is exclusive, or shared.
    ///   - waits: Whether to wait for a conflicting lock to go, or give up at once.
    /// - Returns: False when `waits` is false and another open of the file holds a lock that conflicts.
    package func lock(exclusive: Bool, waits: Bool) -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (waits ? 0 : LOCK_NB)
        while systemCall(waits ? .lock : .tryLock, on: path, { flock(fd, operation) }) != 0 {
            switch errno {
            case EINTR: continue  // EINTR only interrupts the wait.
            case EWOULDBLOCK: return false
            default: return true
            }
        }
        return true
    }

    /// Takes an exclusive advisory lock (`flock`) on the open file or folder, waiting for a conflicting one to go, or
    /// throws: unlike ``lock(exclusive:waits:)``, a system that cannot lock the file fails, for a change whose
    /// correctness rests on the lock (a value stored only where none is).
    ///
    /// - Throws: The `flock` failure (`ENOLCK`, `EOPNOTSUPP`…), as a failed write of `path`.
    package func lockExclusivelyOrThrow() throws(FileSystemError) {
        while systemCall(.lock, on: path, { flock(fd, LOCK_EX) }) != 0 {
            if errno == EINTR { continue }  // EINTR only interrupts the wait.
            throw FileSystemError.current(.write, path: path)
        }
    }

    /// Runs `body` while this process holds an exclusive advisory lock (`flock`) on the open file.
    package func withExclusiveLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while systemCall(.lock, on: path, { flock(fd, LOCK_EX) }) != 0, errno == EINTR {}  // EINTR interrupts the wait.
        defer { _ = systemCall(.lock, on: path) { flock(fd, LOCK_UN) } }
        return try body()
    }
}
