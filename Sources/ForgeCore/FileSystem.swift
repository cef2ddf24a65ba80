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

/// The one home of every file-system call the stores make.
///
/// Paths are absolute POSIX paths. Every call goes straight to the C library: no `FileManager` on the hot
/// paths, so a read or write costs what the system calls cost. Writes are atomic: see
/// ``writeAtomically(_:toPath:options:)``.
package enum FileSystem {
    /// How ``writeAtomically(_:toPath:options:)`` writes.
    package struct WriteOptions: Sendable {
        /// The permission bits of the new file, before the umask.
        ///
        /// `0o600` for secrets.
        package var permissions: mode_t = 0o644
        /// The permission bits of folders created on the way.
        package var directoryPermissions: mode_t = 0o755
        /// When false, the write fails with `EEXIST` if the path already holds a file, without a race.
        package var replaceExisting = true
        /// When true, the data is flushed to the storage device (`fsync`, or `F_FULLFSYNC` on Apple
        /// platforms) before the file is renamed into place.
        package var synchronize = false
        /// The Data Protection level, on platforms that have it.
        package var protection: FileProtection? = nil
        /// When false, a write whose folder does not exist fails with `ENOENT` instead of creating the folder.
        package var createsFolders = true

        /// Options for an ordinary file: 0644, replacing what is there, without `fsync`.
        package init() {}
    }

    /// Marks every temporary file a write creates, so leftovers can be recognised and removed.
    package static let temporaryMarker = ".forge-tmp-"

    // MARK: Reading

    /// Reads the whole regular file at `path`.
    ///
    /// A symbolic link as the last name of `path` is not followed: the read fails with `ELOOP`. Folders on the
    /// way are followed, so `path` may start in a linked folder.
    package static func readFile(atPath path: String) throws(FileSystemError) -> Data {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        return try readAndClose(fd, openError: errno, path: path)
    }

    /// Reads the whole file named `name` in the folder at `folder`.
    ///
    /// The same as ``readFile(atPath:)`` of `folder/name`, with that path built on the stack, not the heap: a
    /// symbolic link named `name` is not followed and fails with `ELOOP`.
    package static func readFile(named name: String, inFolder folder: String) throws(FileSystemError) -> Data {
        let (fd, code) = withJoinedPath(folder, name) { path in
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            return (fd, errno)
        }
        return try readAndClose(fd, openError: code, path: folder + "/" + name)
    }

    /// Reads all of `fd` and closes it; a negative `fd` is an `open` that failed with `openError`.
    private static func readAndClose(
        _ fd: Int32,
        openError: Int32,
        path: @autoclosure () -> String
    ) throws(FileSystemError) -> Data {
        guard fd >= 0 else { throw FileSystemError(.open, path: path(), code: openError) }
        defer { _ = close(fd) }
        return try readAll(from: fd, path: path())
    }

    /// Calls `body` with `folder`, a `/` and `name` joined into one NUL-terminated path, built on the stack.
    package static func withJoinedPath<Result>(
        _ folder: String,
        _ name: String,
        _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        let folderLength = folder.utf8.count
        let nameLength = name.utf8.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: folderLength + nameLength + 2) { buffer in
            // Never nil: the capacity is at least 2. An empty path, which no call can open, stands in for it.
            guard let start = buffer.baseAddress else { return body("") }
            // `withCString` lends a native string's own NUL-terminated bytes: one copy of each, by length.
            folder.withCString { start.initialize(from: $0, count: folderLength) }
            start[folderLength] = CChar(bitPattern: UInt8(ascii: "/"))
            name.withCString { (start + folderLength + 1).initialize(from: $0, count: nameLength) }
            start[folderLength + 1 + nameLength] = 0
            return body(start)
        }
    }

    /// Calls `body` with both strings as NUL-terminated C strings, lent without a heap copy for native Swift
    /// strings (passing a `String` straight to a C function copies it into a new array on every call; a bridged
    /// `NSString` may still be copied once).
    package static func withCStrings<Result, Failure: Error>(
        _ first: String,
        _ second: String,
        _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let result = first.withCString { first in
            second.withCString { second in Swift.Result { () throws(Failure) in try body(first, second) } }
        }
        return try result.get()
    }

    /// Reads the whole regular file open at `fd` (which stays open); `path` names it in errors.
    ///
    /// A folder fails with `EISDIR`, any other kind of file that is not a regular file with `EINVAL`. `path` is
    /// only built when an error needs it.
    static func readAll(from fd: Int32, path: @autoclosure () -> String) throws(FileSystemError) -> Data {
        try readRegularFile(from: fd, path: path()).data
    }

    /// Reads the whole regular file open at `fd`, as ``readAll(from:path:)`` does, and returns its status too,
    /// taken from the same open file.
    static func readRegularFile(
        from fd: Int32,
        path: @autoclosure () -> String
    ) throws(FileSystemError) -> (data: Data, status: stat) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            throw FileSystemError(.stat, path: path(), code: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let code = (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL
            throw FileSystemError(.read, path: path(), code: code)
        }
        return (try readAll(fd, size: Int(info.st_size), path: path()), info)
    }

    /// Reads from the open file `fd` until its end; `size` is the expected size, used to size the buffer.
    static func readAll(_ fd: Int32, size: Int, path: @autoclosure () -> String) throws(FileSystemError) -> Data {
        // One byte more than the size: room for the read that returns 0 when a file is shorter than its size said.
        var capacity = max(size, 0) + 1
        guard var buffer = malloc(capacity) else { throw FileSystemError(.read, path: path(), code: ENOMEM) }
        var count = 0
        while true {
            if count == capacity {
                capacity *= 2
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw FileSystemError(.read, path: path(), code: ENOMEM)
                }
                buffer = grown
            }
            let result = read(fd, buffer + count, capacity - count)
            if result > 0 {
                count += result
                // The stores replace files by renaming and never write one in place: `size` bytes are the
                // whole file, so no further read is needed to find its end.
                if count == size { break }
            } else if result == 0 {
                break
            } else if errno != EINTR {
                let code = errno
                free(buffer)
                throw FileSystemError(.read, path: path(), code: code)
            }
        }
        if count == 0 {
            free(buffer)
            return Data()
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// Whether a regular file exists at `path` (symbolic links are not followed).
    package static func regularFileExists(atPath path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The status of `path`, without following a final symbolic link; nil when nothing is there.
    package static func status(atPath path: String) throws(FileSystemError) -> stat? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw FileSystemError(.stat, path: path, code: code)
        }
        return info
    }

    /// Whether a regular file is at `path` (a final symbolic link is not followed).
    ///
    /// - Throws: when the system cannot tell, for example when a folder on the way may not be searched:
    ///   that is never reported as "no file".
    package static func isRegularFile(atPath path: String) throws(FileSystemError) -> Bool {
        guard let info = try status(atPath: path) else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }

    // MARK: Writing

    /// Writes `data` to `path` atomically: readers see the old file or the new one, never a torn or
    /// empty file, and a failed write leaves no temporary file behind.
    ///
    /// The data goes to a temporary file in the same folder, which is then renamed over `path` (or
    /// hard-linked to it when ``WriteOptions/replaceExisting`` is false, which fails with `EEXIST` if
    /// `path` exists). Missing parent folders are created. Unless ``WriteOptions/synchronize`` is set the
    /// data is not flushed: a process crash keeps the old or the new file, while a power loss may lose the
    /// most recent writes. A write whose folder is removed while it runs (by ``removeDirectoryTree(atPath:)``)
    /// goes again, into a new folder.
    package static func writeAtomically(
        _ data: Data,
        toPath path: String,
        options: WriteOptions = WriteOptions()
    ) throws(FileSystemError) {
        let (parent, name) = split(path)
        try writeAtomically(data, named: name, inFolder: parent, options: options)
    }

    /// Writes `data` to the file named `name` in the folder at `folder`, as ``writeAtomically(_:toPath:options:)``
    /// does to `folder/name`, without joining the path only to split it again.
    ///
    /// `name` is one name: an empty name or one with a `/` fails with `EINVAL`.
    package static func writeAtomically(
        _ data: Data,
        named name: String,
        inFolder folder: String,
        options: WriteOptions = WriteOptions()
    ) throws(FileSystemError) {
        var bytes = name
        let isOneName = bytes.withUTF8 { buffer in
            guard let start = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(start, Int32(UInt8(ascii: "/")), buffer.count) == nil
        }
        guard isOneName else {
            throw FileSystemError(.open, path: folder + "/" + name, code: EINVAL)
        }
        try ConfinedFolder(path: folder, options: options)
            .writeFile(data, to: [name], replaceExisting: options.replaceExisting)
    }

    static func writeAll(_ data: Data, to fd: Int32, path: @autoclosure () -> String) throws(FileSystemError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            guard var pointer = bytes.baseAddress else { return nil }
            var remaining = bytes.count
            while remaining > 0 {
                let written = write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                remaining -= written
                pointer += written
            }
            return nil
        }
        if let failure { throw FileSystemError(.write, path: path(), code: failure) }
    }

    static func synchronize(_ fd: Int32, path: @autoclosure () -> String) throws(FileSystemError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else {
            let code = errno
            throw FileSystemError(.sync, path: path(), code: code)
        }
    }

    static func applyProtection(_ protection: FileProtection?, toPath path: String) throws(FileSystemError) {
        #if canImport(Darwin) && !os(macOS)
        guard let protection else { return }
        do {
            try FileManager.default.setAttributes([.protectionKey: protection.foundationValue], ofItemAtPath: path)
        } catch {
            throw FileSystemError(.setAttributes, path: path, code: EPERM)
        }
        #endif
    }

    /// A fresh temporary name for a file named `name`, to be created in the same folder: hidden, marked, and
    /// carrying this process's id, so that ``isOrphanedTemporaryFile(named:)`` can tell a crashed writer's
    /// leftover from a live write.
    package static func temporaryName(for name: String) -> String {
        temporaryName(for: name, suffix: (UInt64(getpid()), UInt64.random(in: 0...UInt64.max)))
    }

    /// How every temporary name for `name` starts: a dot, at most 64 bytes of `name` (cut between Unicode
    /// scalars, so the temporary name fits NAME_MAX whatever the length of `name`), and the marker.
    package static func temporaryNamePrefix(for name: String) -> String {
        temporaryName(for: name, suffix: nil)
    }

    /// The prefix for `name`, then, when `suffix` is given, its process id in decimal, `-`, and its random
    /// number in base 36.
    private static func temporaryName(for name: String, suffix: (processID: UInt64, random: UInt64)?) -> String {
        let nameBytes = Array(name.utf8)
        // A scalar starts at any byte that is not a continuation byte (10xxxxxx).
        var kept = min(nameBytes.count, 64)
        while kept < nameBytes.count && nameBytes[kept] & 0xC0 == 0x80 { kept -= 1 }
        let prefix = "." + String(decoding: nameBytes[..<kept], as: UTF8.self) + temporaryMarker
        guard let suffix else { return prefix }
        return prefix + "\(suffix.processID)-\(String(suffix.random, radix: 36))"
    }

    /// The bytes of ``temporaryMarker``.
    private static let temporaryMarkerBytes = Array(temporaryMarker.utf8)

    /// Whether `name` has the form of a temporary file or folder made by ``temporaryName(for:)``.
    ///
    /// Temporaries of every process match, running or not: such entries are never shown as stored content.
    package static func isTemporaryName(_ name: String) -> Bool {
        name.utf8.first == UInt8(ascii: ".") && name.contains(temporaryMarker)
    }

    // MARK: Folders

    /// Creates the folder at `path` and any missing parents.
    ///
    /// Succeeds when it already exists.
    package static func createDirectories(
        atPath path: String,
        permissions: mode_t = 0o755,
        protection: FileProtection? = nil
    ) throws(FileSystemError) {
        if mkdir(path, permissions) == 0 {
            try applyProtection(protection, toPath: path)
            return
        }
        switch errno {
        case EEXIST:
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw FileSystemError(.createDirectory, path: path, code: ENOTDIR)
            }
        case ENOENT:
            let parent = parentPath(of: path)
            guard parent != path else { throw FileSystemError(.createDirectory, path: path, code: ENOENT) }
            try createDirectories(atPath: parent, permissions: permissions, protection: protection)
            guard mkdir(path, permissions) == 0 || errno == EEXIST else {
                throw FileSystemError(.createDirectory, path: path, code: errno)
            }
            try applyProtection(protection, toPath: path)
        default:
            throw FileSystemError(.createDirectory, path: path, code: errno)
        }
    }

    /// One entry of a folder listing.
    package struct Entry: Sendable, Equatable {
        /// The entry's name inside its folder.
        ///
        /// A name whose bytes are not UTF-8 (which no store writes) has each ill-formed sequence replaced by
        /// U+FFFD here, and its bytes in ``undecodableName``.
        package var name: String
        /// What the entry is.
        ///
        /// Symbolic links are reported as links, never followed.
        package var kind: Kind
        /// The name's bytes, NUL-terminated, when they are not UTF-8; nil for every name a store writes.
        package var undecodableName: [CChar]? = nil

        /// Whether the name is UTF-8, as every name a store writes is: only such entries can be store content.
        package var hasUTF8Name: Bool { undecodableName == nil }

        /// Calls `body` with the entry's name as the system knows it, for calls that act on the entry.
        package func withSystemName<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
            guard let undecodableName else { return name.withCString(body) }
            return undecodableName.withUnsafeBufferPointer { buffer in
                // Never nil: the name holds at least its NUL.
                guard let start = buffer.baseAddress else { return name.withCString(body) }
                return body(start)
            }
        }

        /// What a folder entry is.
        package enum Kind: Sendable, Equatable {
            case file, directory, symbolicLink, other
        }
    }

    /// The entries of the folder at `path`, without `.` and `..`, in no particular order.
    ///
    /// Returns an empty list when the folder does not exist.
    package static func listDirectory(atPath path: String) throws(FileSystemError) -> [Entry] {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return [] }
            throw FileSystemError(.list, path: path, code: code)
        }
        defer { _ = close(fd) }
        return try entries(ofDirectory: fd, path: path)
    }

    /// The entries of the folder open at `fd`, which stays open, without `.` and `..`.
    ///
    /// The entries come in no particular order; `path` names the folder in errors. One `readdir` pass: an
    /// entry's kind comes from the listing itself, and costs an `fstatat` only on file systems that do not
    /// report it.
    package static func entries(ofDirectory fd: Int32, path: String) throws(FileSystemError) -> [Entry] {
        // `fdopendir` takes its descriptor over, so it gets a duplicate and `fd` stays the caller's.
        let owned = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard owned >= 0 else { throw FileSystemError(.list, path: path, code: errno) }
        guard let directory = fdopendir(owned) else {
            let code = errno
            _ = close(owned)
            throw FileSystemError(.list, path: path, code: code)
        }
        defer { closedir(directory) }
        // The duplicate shares the read position of `fd`, which an earlier listing may have moved.
        rewinddir(directory)
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let (name, undecodableName) = withUnsafeBytes(of: entry.pointee.d_name) { raw -> (String, [CChar]?) in
                let bytes = raw.prefix(while: { $0 != 0 })
                // ASCII is always UTF-8, and most names are ASCII: only the others pay for validation.
                if bytes.allSatisfy({ $0 < 0x80 }) { return (String(decoding: bytes, as: UTF8.self), nil) }
                if let name = String(validating: bytes, as: UTF8.self) { return (name, nil) }
                return (String(decoding: bytes, as: UTF8.self), bytes.map { CChar(bitPattern: $0) } + [0])
            }
            if name == "." || name == ".." { continue }
            var listed = Entry(name: name, kind: .other, undecodableName: undecodableName)
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): listed.kind = .file
            case Int32(DT_DIR): listed.kind = .directory
            case Int32(DT_LNK): listed.kind = .symbolicLink
            case Int32(DT_UNKNOWN): listed.kind = listed.withSystemName { kindOfEntry(named: $0, inDirectory: fd) }
            default: listed.kind = .other
            }
            entries.append(listed)
        }
        return entries
    }

    private static func kindOfEntry(named name: UnsafePointer<CChar>, inDirectory fd: Int32) -> Entry.Kind {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Removes the file or symbolic link at `path`.
    ///
    /// Returns false when nothing was there.
    @discardableResult
    package static func removeFile(atPath path: String) throws(FileSystemError) -> Bool {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw FileSystemError(.remove, path: path, code: code)
        }
        return true
    }

    /// Removes the folder at `path` if it is empty; returns false when it is not empty or not there.
    @discardableResult
    package static func removeEmptyDirectory(atPath path: String) -> Bool {
        rmdir(path) == 0
    }

    /// Removes the folder at `path` and everything in it, without following symbolic links inside it.
    ///
    /// The folder is first renamed to a hidden sibling, so readers see all of it vanish at once and a
    /// crash mid-way leaves no half-emptied folder under the original name (the next start removes the
    /// sibling). When the folder is a symbolic link, or its parent may not be changed, its contents are
    /// removed in place instead and the folder stays. Succeeds when nothing is there.
    package static func removeDirectoryTree(atPath path: String) throws(FileSystemError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw FileSystemError(.stat, path: path, code: errno)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            let (parent, name) = split(path)
            let parentFD = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if parentFD >= 0 {
                defer { _ = close(parentFD) }
                let trash = temporaryName(for: name)
                if renameat(parentFD, name, parentFD, trash) == 0 {
                    try removeDirectory(named: trash, in: parentFD, path: parent + "/" + trash)
                    return
                }
                if errno == ENOENT { return }
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw FileSystemError(.open, path: path, code: errno)
        }
        defer { _ = close(fd) }
        try removeContents(ofDirectory: fd, path: path)
    }

    // MARK: Leftovers

    /// Whether `name` is a temporary file or folder left by a writer whose process no longer runs.
    ///
    /// Temporaries of live processes, this one included, are never orphans: their writes may still land.
    package static func isOrphanedTemporaryFile(named name: String) -> Bool {
        // The last marker is the writer's own: the name before it comes from a key or path and may hold one.
        guard name.hasPrefix("."), let marker = name.range(of: temporaryMarker, options: .backwards) else {
            return false
        }
        let rest = name[marker.upperBound...]
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) else { return false }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Creates a new, empty, uniquely named folder in the system's temporary folder (`mkdtemp`).
    package static func makeTemporaryDirectory(prefix: String = "forge") throws(FileSystemError) -> String {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array("\(base)/\(prefix)-XXXXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) } != nil
        }
        guard created else { throw FileSystemError(.createDirectory, path: base, code: errno) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Paths

    /// The folder part of `path` and the name after its last `/`: `/a/b` gives `/a` and `b`, `/b` gives `/`
    /// and `b`, and `b` gives `.` and `b`.
    package static func split(_ path: String) -> (parent: String, name: String) {
        var path = path
        return path.withUTF8 { bytes in
            guard let slash = lastSlash(in: bytes) else { return (".", String(decoding: bytes, as: UTF8.self)) }
            return (parent(in: bytes, before: slash), String(decoding: bytes[(slash + 1)...], as: UTF8.self))
        }
    }

    /// The folder part of `path`: everything before its last `/`.
    package static func parentPath(of path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            guard let slash = lastSlash(in: bytes) else { return "." }
            return parent(in: bytes, before: slash)
        }
    }

    /// The offset of the last `/` in a path's bytes (a `/` is never part of a longer UTF-8 sequence).
    private static func lastSlash(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count
        while index > 0 {
            index -= 1
            if bytes[index] == UInt8(ascii: "/") { return index }
        }
        return nil
    }

    /// The folder of a path whose last `/` is at `slash`: `/` itself for a name in the root folder.
    private static func parent(in bytes: UnsafeBufferPointer<UInt8>, before slash: Int) -> String {
        slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }
}

#if canImport(Darwin) && !os(macOS)
extension FileProtection {
    var foundationValue: FileProtectionType {
        switch self {
        case .none: .none
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        }
    }
}
#endif
