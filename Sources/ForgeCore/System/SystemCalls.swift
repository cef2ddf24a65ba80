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

#if !canImport(Darwin)
internal import CForgeSystem
#endif

/// An open file or folder, which closes itself when the last reference to it goes; a folder's descriptor reaches
/// the names inside it with the `…at` calls, never following a link the call names (that fails with `ELOOP`).
///
/// This file holds every call the stores make to the C library and every reading of `errno`, but those of
/// `SystemCalls+OpenFileVersion.swift`; `SystemCodes.swift` reads the codes and statuses they return.
package final class Descriptor {
    /// The file descriptor; -1 once closed.
    ///
    /// Read by the calls of `SystemCalls+OpenFileVersion.swift`.
    private(set) var fd: Int32
    /// Where the descriptor was opened, for errors.
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { if fd >= 0 { _ = closeDescriptor(fd) } }

    /// How a file or folder is opened.
    package enum Mode {
        /// A file, to read; a FIFO planted in its place does not block the open.
        case read
        /// A folder, to reach the names inside it.
        case folder
        /// A new file, to write; fails with `EEXIST` when the name is taken.
        case createNew(permissions: UInt16)
        /// A lock file, created owner-only when missing.
        case lock

        /// The `open` flags, and the permissions of a file it creates.
        fileprivate var flags: (Int32, mode_t) {
            switch self {
            case .read: (O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)
            case .folder: (O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            case .createNew(let permissions): (O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
            case .lock: (O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            }
        }
    }

    /// Opens `path`; a symbolic link as its last name is followed only when `followsLink` is set.
    package convenience init(opening path: String, _ mode: Mode, followsLink: Bool = true) throws(FileSystemError) {
        let fd = open(path, mode.flags.0 | (followsLink ? 0 : O_NOFOLLOW), mode.flags.1)
        guard fd >= 0 else { throw .current(.open, path: path) }
        self.init(fd: fd, path: path)
    }

    /// Opens `name` in this folder, never following a symbolic link named `name`.
    package func openEntry(_ name: EntryName, _ mode: Mode) throws(FileSystemError) -> Descriptor {
        let fd = openat(self.fd, name.systemName, mode.flags.0 | O_NOFOLLOW, mode.flags.1)
        guard fd >= 0 else { throw obstacle(.open, name) }
        return Descriptor(fd: fd, path: child(name))
    }

    /// Opens the path of `names` beneath this folder in one call that follows no symbolic link on the way; nil
    /// where the system has no such call, and the caller opens one name at a time.
    ///
    /// Linux 5.6 and later resolve the path with `openat2` (`RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`), Apple
    /// platforms with `O_NOFOLLOW_ANY`: a link anywhere on the way fails with `ELOOP`, as the walk does.
    package func openBeneath(_ names: [EntryName], _ mode: Mode) throws(FileSystemError) -> Descriptor? {
        var path: [CChar] = []
        for name in names {
            if !path.isEmpty { path.append(CChar(UInt8(ascii: "/"))) }
            path += name.systemName.dropLast()
        }
        path.append(0)
        #if canImport(Darwin)
        let fd = openat(self.fd, path, mode.flags.0 | O_NOFOLLOW | O_NOFOLLOW_ANY, mode.flags.1)
        #else
        guard Self.kernelOpensBeneath else { return nil }
        let fd = forge_open_beneath(self.fd, path, mode.flags.0 | O_NOFOLLOW, UInt32(mode.flags.1))
        #endif
        let relativePath = names.map(\.string).joined(separator: "/")
        guard fd >= 0 else { throw .current(.open, path: self.path + "/" + relativePath) }
        return Descriptor(fd: fd, path: self.path + "/" + relativePath)
    }

    /// Opens the path of `names` after the folder path `base` in one call, never following a link as its last name;
    /// with `followsNoLink`, no link anywhere on it, `base` included, and nil where the system has no such call.
    ///
    /// With `followsNoLink`, for a store folder with no link on its own path, this opens a path beneath it as
    /// ``openBeneath(_:_:)`` does, without opening the folder first; a link anywhere on the path fails with `ELOOP`.
    /// The path is built in one string, its room reserved: a load of a small file is mostly this call's own cost.
    package static func openPath(
        _ base: String,
        then names: some Collection<String>,
        _ mode: Mode,
        followsNoLink: Bool
    ) throws(FileSystemError) -> Descriptor? {
        var systemPath = ""
        systemPath.reserveCapacity(names.reduce(base.utf8.count + 1) { $0 + $1.utf8.count + 1 })
        systemPath += base
        for name in names {
            systemPath += "/"
            systemPath += name
        }
        let (flags, permissions) = (mode.flags.0 | O_NOFOLLOW, mode.flags.1)
        #if !canImport(Darwin)
        if followsNoLink && !kernelOpensBeneath { return nil }
        #endif
        let fd = systemPath.withCString { address -> Int32 in
            guard followsNoLink else { return open(address, flags, permissions) }
            #if canImport(Darwin)
            return open(address, flags | O_NOFOLLOW_ANY, permissions)
            #else
            return forge_open_without_links(address, flags, UInt32(permissions))
            #endif
        }
        guard fd >= 0 else { throw .current(.open, path: systemPath) }
        return Descriptor(fd: fd, path: systemPath)
    }

    #if !canImport(Darwin)
    /// Whether this kernel has `openat2` (Linux 5.6 and later, and no sandbox refusing it), tried once.
    private static let kernelOpensBeneath: Bool = {
        // The root folder, which every process may open, unlike its working folder.
        let fd = forge_open_without_links("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return false }
        _ = closeDescriptor(fd)
        return true
    }()
    #endif

    /// Closes the descriptor now, to hear what the system reports (a network volume may report a failed write only
    /// here); otherwise it closes when it goes away.
    package func close() throws(FileSystemError) {
        let fd = self.fd
        self.fd = -1
        guard closeDescriptor(fd) == 0 else { throw .current(.close, path: path) }
    }

    /// The path of `name` in this folder, for errors.
    package func child(_ name: EntryName) -> String { path + "/" + name.string }

    /// The whole regular file, to its end; a folder fails with `EISDIR`, any other kind of file with `EINVAL`.
    package func readAll() throws(FileSystemError) -> Data {
        try readToEnd(expecting: status(regularFile: true).size)
    }

    /// The whole regular file when its size is at most `limit` bytes; nil, with nothing read, when it is larger.
    ///
    /// A folder fails with `EISDIR`, any other kind of file with `EINVAL`.
    package func readAll(ifAtMost limit: Int) throws(FileSystemError) -> Data? {
        let size = try status(regularFile: true).size
        guard size <= limit else { return nil }
        return try readToEnd(expecting: size)
    }

    /// The file from its current position to its end, `size` being its size when it was last looked at.
    private func readToEnd(expecting size: Int) throws(FileSystemError) -> Data {
        // The buffer has a byte more than the size: a read that fills less than it asked has met the end (a regular
        // file reads short only there), and a file that grew since fills it and is read on.
        var data = Data(count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == data.count { data.count += max(data.count, 4096) }
            let wanted = data.count - count
            // `read` fills the buffer in place, so it takes the buffer's address.
            let result = data.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, wanted) }
            if result >= 0 { count += result } else if errno != EINTR { throw .current(.read, path: path) }
            if result >= 0 && result < wanted { break }
        }
        data.count = count
        return data
    }

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

    /// The status of the open file; with `regularFile` set, anything else fails (`EISDIR` a folder, else `EINVAL`).
    package func status(regularFile: Bool = false) throws(FileSystemError) -> FileStatus {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .current(.stat, path: path) }
        let status = FileStatus(info)
        guard !regularFile || status.kind == .file else {
            throw FileSystemError(.read, path: path, code: status.kind == .folder ? EISDIR : EINVAL)
        }
        return status
    }

    /// Sets the permission bits of the open file or folder.
    package func setPermissions(_ permissions: UInt16) throws(FileSystemError) {
        guard fchmod(fd, mode_t(permissions)) == 0 else { throw .current(.setAttributes, path: path) }
    }

    /// The 8-byte little-endian counter at `offset` in the file; 0 while the file ends before it.
    package func readCounter(at offset: Int) throws(FileSystemError) -> UInt64 {
        var bytes = [UInt8](repeating: 0, count: 8)
        var result = 0
        repeat {
            // `pread` fills the buffer in place, so it takes the buffer's address.
            result = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, off_t(offset)) }
        } while result < 0 && errno == EINTR
        guard result >= 0 else { throw .current(.read, path: path) }
        guard result == 8 else { return 0 }
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
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

    /// The status of `name` in this folder, a link not followed; nil when nothing has that name.
    package func status(of name: EntryName) throws(FileSystemError) -> FileStatus? {
        var info = stat()
        guard fstatat(fd, name.systemName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw .current(.stat, path: child(name))
        }
        return FileStatus(info)
    }

    /// The kind and version of `name` in this folder, a link not followed; nil when nothing has that name.
    package func version(of name: EntryName) throws(FileSystemError) -> (kind: FileStatus.Kind, version: FileVersion)? {
        var info = stat()
        guard fstatat(fd, name.systemName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .current(.stat, path: child(name))
        }
        return (FileStatus(info).kind, FileVersion(info))
    }

    /// Renames `name` to `newName` in this folder, replacing what `newName` names unless it is a folder.
    package func rename(_ name: EntryName, to newName: EntryName) throws(FileSystemError) {
        guard renameat(fd, name.systemName, fd, newName.systemName) == 0 else { throw obstacle(.rename, newName) }
    }

    /// Gives the file `name` a second name, `newName`, in this folder; fails with `EEXIST` when it is taken.
    package func link(_ name: EntryName, as newName: EntryName) throws(FileSystemError) {
        guard linkat(fd, name.systemName, fd, newName.systemName, 0) == 0 else { throw obstacle(.link, newName) }
    }

    /// Creates the folder `name` in this folder; fails with `EEXIST` when the name is taken.
    package func makeFolder(_ name: EntryName, permissions: UInt16) throws(FileSystemError) {
        guard mkdirat(fd, name.systemName, mode_t(permissions)) == 0 else {
            throw .current(.createDirectory, path: child(name))
        }
    }

    /// Removes `name` from this folder when it is one of `kinds` (a folder only when empty); nothing there fails with
    /// `ENOENT`, a folder not asked for with `EISDIR`, a link with `ELOOP`, anything else with `EINVAL`.
    package func remove(_ name: EntryName, kinds: Set<FileStatus.Kind>) throws(FileSystemError) {
        let kind = try status(of: name)?.kind
        guard let kind, kinds.contains(kind) else {
            let code = kind == nil ? ENOENT : kind == .folder ? EISDIR : kind == .symbolicLink ? ELOOP : EINVAL
            throw FileSystemError(.remove, path: child(name), code: code)
        }
        guard unlinkat(fd, name.systemName, kind == .folder ? AT_REMOVEDIR : 0) == 0 else {
            throw .current(.remove, path: child(name))
        }
    }

    /// The entries of this folder but `.` and `..`, in no order, read in full before any is used (some file systems
    /// skip entries of a folder that changes while it is read); a kind the listing omits is asked of `fstatat`.
    package func entries() throws(FileSystemError) -> [FolderEntry] {
        // `fdopendir` takes its descriptor over, so it gets a duplicate, which shares this one's read position.
        let owned = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard owned >= 0, let directory = fdopendir(owned) else {
            let error = FileSystemError.current(.list, path: path)
            if owned >= 0 { _ = closeDescriptor(owned) }
            throw error
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var entries: [FolderEntry] = []
        while let entry = readdir(directory) {
            // `d_name` is a fixed-size C array: its bytes up to the NUL are the name.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { array in
                array.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: array.pointee)) {
                    EntryName(cString: $0)
                }
            }
            if name.string == "." || name.string == ".." { continue }
            let kind = FileStatus.Kind(listed: Int32(entry.pointee.d_type)) ?? (try? status(of: name))?.kind
            entries.append(FolderEntry(storedName: name, kind: kind ?? .other))
        }
        return entries
    }

    /// The error of `operation` on `name`, just failed, naming what stood in the way: `ELOOP` a link, `EISDIR` a
    /// folder, `ENOTDIR` another kind of file.
    private func obstacle(_ operation: FileSystemError.Operation, _ name: EntryName) -> FileSystemError {
        let error = FileSystemError.current(operation, path: child(name))
        let foundFolder = [EEXIST, ENOTEMPTY, EISDIR].contains(error.code)
        let foundOther = [ENOTDIR, ELOOP, EMLINK].contains(error.code)
        guard foundFolder || foundOther, let kind = (try? status(of: name))?.kind else { return error }
        switch kind {
        case .symbolicLink: return FileSystemError(operation, path: error.path, code: ELOOP)
        case .folder where foundFolder: return FileSystemError(operation, path: error.path, code: EISDIR)
        case .file where foundOther, .other where foundOther:
            return FileSystemError(operation, path: error.path, code: ENOTDIR)
        default: return error
        }
    }

    /// The version of the file at `path`, a link followed; nil when nothing is there.
    package static func version(ofFileAt path: String) throws(FileSystemError) -> FileVersion? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .current(.stat, path: path)
        }
        return FileVersion(info)
    }

    /// Why writing the file at `path` would fail; nil when nothing stands in the way.
    ///
    /// It is found without changing the file: the file is opened to append and closed again, and when it is missing,
    /// its folder is checked for writing.
    package static func problemWriting(toPath path: String) -> FileSystemError? {
        let fd = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            _ = closeDescriptor(fd)
            return nil
        }
        let error = FileSystemError.current(.open, path: path)
        guard error.isMissing else { return error }
        let folder = (path as NSString).deletingLastPathComponent
        guard access(folder, W_OK | X_OK) != 0 else { return nil }
        return .current(.open, path: folder)
    }

    /// Whether no process has the id `pid` any more.
    package static func processIsGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }
}

extension FileSystemError {
    /// The error of `operation` on `path` that just failed; `errno` is read first, as building `path` may change it.
    fileprivate static func current(_ operation: Operation, path: @autoclosure () -> String) -> FileSystemError {
        let code = errno
        return FileSystemError(operation, path: path(), code: code)
    }
}

extension EntryName {
    /// The name as the system takes it: its bytes, NUL-terminated.
    fileprivate var systemName: [CChar] { (undecodableBytes ?? Array(string.utf8)).map { CChar(bitPattern: $0) } + [0] }
}

/// `close`, which the methods of ``Descriptor`` cannot name: its own ``Descriptor/close()`` hides it there.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
