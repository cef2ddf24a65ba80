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

// Every call the stores make to the C library is in this file, and so is every reading of `errno`: the rest of
// the package speaks in descriptors, names and `FileSystemError`s.

/// An open file or folder, which closes itself when the last reference to it goes.
///
/// A folder's descriptor reaches the names inside it with the `…at` calls, never following a symbolic link
/// named by the call: a link where a file or folder was asked for fails with `ELOOP`.
package final class Descriptor {
    /// The file descriptor.
    private var fd: Int32
    /// Where the descriptor was opened, for errors.
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit {
        if fd >= 0 { _ = closeDescriptor(fd) }
    }

    /// How a file or folder is opened.
    package enum Mode {
        /// A file, to read; a FIFO planted in its place does not block the open.
        case read
        /// A folder, to reach the names inside it.
        case folder
        /// A new file, to write; fails with `EEXIST` when the name is taken.
        case createNew(permissions: UInt16)
        /// A lock file, created when missing.
        case lock

        fileprivate var flags: Int32 {
            switch self {
            case .read: O_RDONLY | O_NONBLOCK | O_CLOEXEC
            case .folder: O_RDONLY | O_DIRECTORY | O_CLOEXEC
            case .createNew: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
            case .lock: O_RDWR | O_CREAT | O_CLOEXEC
            }
        }

        fileprivate var permissions: mode_t {
            switch self {
            case .createNew(let permissions): mode_t(permissions)
            case .lock: 0o600
            case .read, .folder: 0
            }
        }
    }

    /// Opens `path`; a symbolic link as its last name is followed only when `followsLink` is set.
    package convenience init(opening path: String, _ mode: Mode, followsLink: Bool = true) throws(FileSystemError) {
        let fd = open(path, mode.flags | (followsLink ? 0 : O_NOFOLLOW), mode.permissions)
        guard fd >= 0 else { throw FileSystemError(.open, path: path, code: errno) }
        self.init(fd: fd, path: path)
    }

    /// Closes the descriptor now, reporting what the system reports (a network volume may only report a failed
    /// write here); otherwise it closes when it goes away.
    package func close() throws(FileSystemError) {
        let fd = self.fd
        self.fd = -1
        guard closeDescriptor(fd) == 0 else { throw FileSystemError(.close, path: path, code: errno) }
    }

    /// Opens `name` in this folder, never following a symbolic link named `name`.
    package func openEntry(_ name: String, _ mode: Mode) throws(FileSystemError) -> Descriptor {
        let fd = openat(self.fd, name, mode.flags | O_NOFOLLOW, mode.permissions)
        guard fd >= 0 else { throw FileSystemError(.open, path: child(name), code: obstacle(name, errno)) }
        return Descriptor(fd: fd, path: child(name))
    }

    /// The path of `name` in this folder.
    package func child(_ name: String) -> String {
        path + "/" + name
    }

    // MARK: Files

    /// The whole file, read from its start until the end; a folder fails with `EISDIR`, any other kind of file
    /// that is not a regular file with `EINVAL`.
    package func readAll() throws(FileSystemError) -> Data {
        let size = try status().size
        // The size sizes the buffer; reading goes on until `read` reports the end, so a file that grew or shrank
        // since is read as it is.
        var data = Data(count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == data.count { data.count += max(data.count, 4096) }
            // `read` fills the buffer in place: the one way to it is the buffer's address.
            let result = data.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if result > 0 {
                count += result
            } else if result == 0 {
                break
            } else if errno != EINTR {
                throw FileSystemError(.read, path: path, code: errno)
            }
        }
        data.count = count
        return data
    }

    /// Writes all of `data` at the file's current position.
    package func writeAll(_ data: Data) throws(FileSystemError) {
        var written = 0
        while written < data.count {
            // `write` reads the bytes in place: the one way to them is their address.
            let result = data.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if result >= 0 {
                written += result
            } else if errno != EINTR {
                throw FileSystemError(.write, path: path, code: errno)
            }
        }
    }

    /// Flushes the file's data, or the folder's entries, to the storage device.
    ///
    /// `F_FULLFSYNC` on Apple platforms, where `fsync` stops at the drive's cache.
    package func synchronize() throws(FileSystemError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw FileSystemError(.sync, path: path, code: errno) }
    }

    /// The status of the open file; a file that is not regular fails (`EISDIR` for a folder, else `EINVAL`) when
    /// `regularFile` is set.
    package func status(regularFile: Bool = true) throws(FileSystemError) -> FileStatus {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(.stat, path: path, code: errno) }
        let status = FileStatus(info)
        if regularFile && status.kind != .file {
            throw FileSystemError(.read, path: path, code: status.kind == .folder ? EISDIR : EINVAL)
        }
        return status
    }

    /// Sets the permission bits of the open file or folder.
    package func setPermissions(_ permissions: UInt16) throws(FileSystemError) {
        guard fchmod(fd, mode_t(permissions)) == 0 else {
            throw FileSystemError(.setAttributes, path: path, code: errno)
        }
    }

    /// Runs `body` while this process holds an exclusive advisory lock (`flock`) on the open file.
    package func withExclusiveLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        // EINTR only interrupts the wait.
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    // MARK: Names in a folder

    /// The status of `name` in this folder, a link not followed; nil when nothing has that name.
    package func status(of name: String) throws(FileSystemError) -> FileStatus? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystemError(.stat, path: child(name), code: errno)
        }
        return FileStatus(info)
    }

    /// Renames `name` to `newName` in this folder, replacing what `newName` names unless it is a folder.
    package func rename(_ name: String, to newName: String) throws(FileSystemError) {
        guard renameat(fd, name, fd, newName) == 0 else {
            throw FileSystemError(.rename, path: child(newName), code: obstacle(newName, errno))
        }
    }

    /// Gives the file `name` a second name, `newName`, in this folder; fails with `EEXIST` when it is taken.
    package func link(_ name: String, as newName: String) throws(FileSystemError) {
        guard linkat(fd, name, fd, newName, 0) == 0 else {
            throw FileSystemError(.link, path: child(newName), code: obstacle(newName, errno))
        }
    }

    /// Creates the folder `name` in this folder; fails with `EEXIST` when the name is taken.
    package func makeFolder(_ name: String, permissions: UInt16) throws(FileSystemError) {
        guard mkdirat(fd, name, mode_t(permissions)) == 0 else {
            throw FileSystemError(.createDirectory, path: child(name), code: errno)
        }
    }

    /// Removes the entry `name` from this folder: a file or a link, or, with `folder` set, an empty folder.
    package func remove(_ name: EntryName, folder: Bool = false) throws(FileSystemError) {
        let removed = name.withSystemName { unlinkat(fd, $0, folder ? AT_REMOVEDIR : 0) == 0 }
        guard removed else { throw FileSystemError(.remove, path: child(name.string), code: errno) }
    }

    /// Opens the folder `name` in this folder, by the name's own bytes, never following a link.
    package func openFolder(_ name: EntryName) throws(FileSystemError) -> Descriptor {
        let fd = name.withSystemName { openat(self.fd, $0, Mode.folder.flags | O_NOFOLLOW) }
        guard fd >= 0 else { throw FileSystemError(.open, path: child(name.string), code: errno) }
        return Descriptor(fd: fd, path: child(name.string))
    }

    /// The entries of this folder, without `.` and `..`, in no particular order.
    ///
    /// The whole listing is read before it is returned, as some file systems skip entries when a folder changes
    /// while it is being read. An entry's kind comes from the listing, or from `fstatat` where the file system
    /// does not report it.
    package func entries() throws(FileSystemError) -> [FolderEntry] {
        // `fdopendir` takes its descriptor over, so it gets a duplicate, which shares this one's read position.
        let owned = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard owned >= 0 else { throw FileSystemError(.list, path: path, code: errno) }
        guard let directory = fdopendir(owned) else {
            let code = errno
            _ = closeDescriptor(owned)
            throw FileSystemError(.list, path: path, code: code)
        }
        defer { closedir(directory) }
        rewinddir(directory)
        var entries: [FolderEntry] = []
        while let entry = readdir(directory) {
            // `d_name` is a fixed-size C array: its bytes, up to the NUL, are the name.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { EntryName(bytes: $0.prefix { $0 != 0 }) }
            if name.string == "." || name.string == ".." { continue }
            var kind = FileStatus.Kind(directoryEntryType: Int32(entry.pointee.d_type))
            if kind == nil { kind = (try? status(of: name.string))?.kind ?? .other }
            entries.append(FolderEntry(storedName: name, kind: kind ?? .other))
        }
        return entries
    }

    /// What stands at `name` when a call on it failed with `code`: `ELOOP` for a link, `EISDIR` for a folder,
    /// `ENOTDIR` for another kind of file, where the call needed something else; other codes as they are.
    private func obstacle(_ name: String, _ code: Int32) -> Int32 {
        let mismatch = [ENOTDIR, ELOOP, EMLINK, EEXIST, ENOTEMPTY, EISDIR]
        guard mismatch.contains(code), let kind = (try? status(of: name))?.kind else { return code }
        switch kind {
        case .symbolicLink: return ELOOP
        case .folder: return [EEXIST, ENOTEMPTY, EISDIR].contains(code) ? EISDIR : code
        case .file, .other: return [ENOTDIR, ELOOP, EMLINK].contains(code) ? ENOTDIR : code
        }
    }
}

// MARK: Paths and processes

extension Descriptor {
    /// Creates the folder at `path` and any missing parents with `permissions`; succeeds when it exists.
    ///
    /// - Returns: Whether the folder at `path` itself was created.
    @discardableResult
    package static func makeFolders(atPath path: String, permissions: UInt16) throws(FileSystemError) -> Bool {
        if mkdir(path, mode_t(permissions)) == 0 { return true }
        switch errno {
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0, FileStatus(info).kind == .folder else {
                throw FileSystemError(.createDirectory, path: path, code: ENOTDIR)
            }
            return false
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { throw FileSystemError(.createDirectory, path: path, code: ENOENT) }
            try makeFolders(atPath: parent, permissions: permissions)
            guard mkdir(path, mode_t(permissions)) == 0 || errno == EEXIST else {
                throw FileSystemError(.createDirectory, path: path, code: errno)
            }
            return true
        default:
            throw FileSystemError(.createDirectory, path: path, code: errno)
        }
    }

    /// Removes the folder at `path` when it is empty; false when it is not empty or not there.
    @discardableResult
    package static func removeEmptyFolder(atPath path: String) -> Bool {
        rmdir(path) == 0
    }

    /// This process's id.
    package static var processID: Int32 { getpid() }

    /// Whether no process has the id `pid` any more.
    package static func processIsGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }
}

// MARK: Errors

extension FileSystemError {
    /// Nothing exists at the path, while the folders on the way do.
    package var isMissing: Bool { code == ENOENT }
    /// A folder that had to be empty was not.
    package var isNotEmpty: Bool { code == ENOTEMPTY || code == EEXIST }

    /// The error of `operation` on `path` when nothing is there (`ENOENT`).
    package static func missing(_ operation: Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: ENOENT)
    }

    /// The error of `operation` on `path` when it finds a folder where it needs a file (`EISDIR`).
    package static func folderInTheWay(_ operation: Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: EISDIR)
    }

    /// The error of `operation` on `path` when it finds a symbolic link it may not follow (`ELOOP`).
    package static func linkInTheWay(_ operation: Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: ELOOP)
    }

    /// The error of `operation` on `path` when what it finds or is given cannot be used (`EINVAL`).
    package static func invalid(_ operation: Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: EINVAL)
    }
}

// MARK: Status

extension FileStatus {
    /// The kind, size, date and permissions in a file's `stat`.
    fileprivate init(_ info: stat) {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        let kind: Kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .file
            case S_IFDIR: .folder
            case S_IFLNK: .symbolicLink
            default: .other
            }
        self.init(
            kind: kind,
            size: Int(info.st_size),
            modificationDate: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9),
            permissions: UInt16(truncatingIfNeeded: info.st_mode & 0o7777)
        )
    }
}

extension FileStatus.Kind {
    /// The kind a folder listing reports (`d_type`); nil when the file system does not say.
    fileprivate init?(directoryEntryType type: Int32) {
        switch type {
        case Int32(DT_REG): self = .file
        case Int32(DT_DIR): self = .folder
        case Int32(DT_LNK): self = .symbolicLink
        case Int32(DT_UNKNOWN): return nil
        default: self = .other
        }
    }
}

extension EntryName {
    /// Calls `body` with the name as the system knows it: its bytes, NUL-terminated.
    fileprivate func withSystemName<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        guard let bytes = undecodableBytes else { return string.withCString(body) }
        return (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { buffer in
            // Never nil: the array holds at least its NUL.
            guard let start = buffer.baseAddress else { return "".withCString(body) }
            return body(start)
        }
    }
}

/// `close`, which the methods of ``Descriptor`` cannot name: its own ``Descriptor/close()`` hides it there.
private func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
