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
    /// The permission bits that let anyone but the owner read, write or search: `0o077`.
    package static let groupAndOtherPermissions: UInt16 = 0o077

    /// Reads the whole file at `path` and returns it with its permission bits (`0o7777` of its mode).
    ///
    /// Both come from one open file, so the bits describe the very file whose bytes were read. Symbolic
    /// links are followed, as ``readFile(atPath:)`` does.
    package static func readFileWithPermissions(
        atPath path: String
    ) throws(FileSystemError) -> (data: Data, permissions: UInt16) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError(.open, path: path, code: errno) }
        defer { _ = close(fd) }

        let (data, info) = try readRegularFile(from: fd, path: path)
        return (data, permissionBits(of: info))
    }

    /// The permission bits (`0o7777` of the mode) of what `path` names, following symbolic links; nil when
    /// nothing is there.
    package static func permissions(atPath path: String) throws(FileSystemError) -> UInt16? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw FileSystemError(.stat, path: path, code: code)
        }
        return permissionBits(of: info)
    }

    /// Sets the permission bits of what `path` names, following symbolic links.
    package static func setPermissions(_ permissions: UInt16, atPath path: String) throws(FileSystemError) {
        guard chmod(path, mode_t(permissions)) == 0 else {
            throw FileSystemError(.setAttributes, path: path, code: errno)
        }
    }

    /// Creates the folder at `path` (and missing parents) with `permissions`, or, when it already exists with
    /// other permission bits, sets them to exactly `permissions`.
    ///
    /// The umask can only remove bits from a new folder and a folder made earlier may have any mode, so the
    /// bits are checked and corrected afterwards: the folder ends with exactly `permissions`, or the call
    /// throws (for example `EPERM` when another user owns it).
    ///
    /// - Returns: The folder's permission bits before they were corrected, or nil when they were already right.
    @discardableResult
    package static func createDirectory(
        atPath path: String,
        exactPermissions permissions: UInt16,
        protection: FileProtection? = nil
    ) throws(FileSystemError) -> UInt16? {
        try createDirectories(atPath: path, permissions: mode_t(permissions), protection: protection)
        guard let current = try self.permissions(atPath: path) else {
            throw FileSystemError(.createDirectory, path: path, code: ENOENT)
        }
        guard current != permissions else { return nil }
        try setPermissions(permissions, atPath: path)
        return current
    }

    private static func permissionBits(of info: stat) -> UInt16 {
        UInt16(truncatingIfNeeded: info.st_mode & 0o7777)
    }
}
