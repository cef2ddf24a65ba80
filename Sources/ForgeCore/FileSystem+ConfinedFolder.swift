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
    /// A folder whose contents are only ever reached beneath it, never through a symbolic link.
    ///
    /// The folder itself is opened by its path (so a base folder that is a link, such as a symlinked home
    /// folder, is followed), and everything inside it is reached from that folder's descriptor one name
    /// at a time with `openat(…, O_NOFOLLOW)`, `fstatat(…, AT_SYMLINK_NOFOLLOW)`, `renameat`, `linkat`
    /// and `unlinkat`. A symbolic link planted anywhere inside, as a file or as any folder on the way,
    /// therefore fails the call with `ELOOP` instead of leading it outside.
    ///
    /// Paths are given as validated names (see ``RelativePath``). Errors are `FileSystemError`s whose codes
    /// say what stood in the way: `ENOENT` nothing, `ENOTDIR` a file where a folder was needed, `EISDIR` a
    /// folder where a file was needed, `ELOOP` a symbolic link, `EEXIST` a file that may not be replaced.
    ///
    /// Folders are created on the way by writes and exist only while they hold something: a removal
    /// removes the folders it leaves empty, and so does a write that fails.
    package struct ConfinedFolder: Sendable {
        /// The absolute path of the folder.
        package let path: String
        /// Permissions, protection and flushing for the files and folders written.
        package let options: WriteOptions

        /// A confined view of the folder at `path`, which need not exist yet.
        package init(path: String, options: WriteOptions = WriteOptions()) {
            self.path = path
            self.options = options
        }
    }
}

// MARK: Files

extension FileSystem.ConfinedFolder {
    /// Reads the regular file at `components`.
    package func readFile(_ components: [String]) throws(FileSystemError) -> Data {
        if components.count == 1 {
            // A file right in the folder: one `open` of its path, as the folder itself is opened by path below, with
            // O_NOFOLLOW for the name. A failure goes the long way, which finds the reason.
            let fd = FileSystem.withJoinedPath(path, components[0]) {
                open($0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            }
            if fd >= 0 {
                defer { _ = close(fd) }
                return try FileSystem.readAll(from: fd, path: absolutePath(components))
            }
        }
        let (folder, requestedName) = try split(components)
        let directory = try openFolder(folder, create: false)
        defer { _ = close(directory) }
        let name = Self.storedName(of: requestedName, in: directory)
        // O_NONBLOCK: a FIFO planted here must not block the open; it has no effect on regular files.
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = Self.obstacle(named: name, in: directory, code: errno)
            throw FileSystemError(.open, path: absolutePath(components), code: code)
        }
        defer { _ = close(fd) }
        return try FileSystem.readAll(from: fd, path: absolutePath(components))
    }

    /// Whether a regular file is at `components`; false for folders, links and anything unreachable.
    package func fileExists(_ components: [String]) -> Bool {
        regularFileStatus(components) != nil
    }

    /// The size and modification date of the regular file at `components`; nil for folders, links and
    /// anything unreachable.
    package func fileMetadata(_ components: [String]) -> FileSystem.Metadata? {
        regularFileStatus(components).map(FileSystem.Metadata.init)
    }

    /// The status of the regular file at `components`; nil for folders, links and anything unreachable.
    private func regularFileStatus(_ components: [String]) -> stat? {
        guard let (folder, name) = try? split(components),
            let directory = try? openFolder(folder, create: false)
        else { return nil }
        defer { _ = close(directory) }
        var info = stat()
        let storedName = Self.storedName(of: name, in: directory)
        guard fstatat(directory, storedName, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG
        else { return nil }
        return info
    }

    /// Writes `data` to `components` atomically, creating the folders on the way.
    ///
    /// The data goes to a temporary file beside the target, which is then renamed over it, or, when
    /// `replaceExisting` is false, hard-linked to it: the link fails with `EEXIST` if anything is there,
    /// so there is no check-then-write race. Readers see the old file or the new one; a failed write leaves
    /// no temporary file and no folder it created. A write whose folder is removed under it (by a
    /// concurrent removal of the folder's last file) starts again.
    package func writeFile(_ data: Data, to components: [String], replaceExisting: Bool) throws(FileSystemError) {
        let (folder, name) = try split(components)
        var attempts = 0
        while true {
            do throws(FileSystemError) {
                try writeOnce(data, folder: folder, name: name, replaceExisting: replaceExisting)
                return
            } catch {
                attempts += 1
                // ENOENT here means a folder on the way vanished after it was opened: go again.
                if error.code == ENOENT && options.createsFolders && attempts < 8 { continue }
                removeEmptyFolders(folder)
                throw error
            }
        }
    }

    private func writeOnce(
        _ data: Data,
        folder: ArraySlice<String>,
        name: String,
        replaceExisting: Bool
    ) throws(FileSystemError) {
        let directory = try openFolder(folder, create: true)
        defer { _ = close(directory) }
        // A file stored under another Unicode spelling of `name` is replaced, so the folder keeps one file.
        let name = Self.storedName(of: name, in: directory)
        try writeOnce(data, named: name, in: directory, at: folder, replaceExisting: replaceExisting)
    }

    /// Writes `data` as `name` in the open folder `directory`, found at `folder`, through a temporary file.
    private func writeOnce(
        _ data: Data,
        named name: String,
        in directory: Int32,
        at folder: ArraySlice<String>,
        replaceExisting: Bool
    ) throws(FileSystemError) {
        let temporary = FileSystem.temporaryName(for: name)
        try FileSystem.withCStrings(temporary, name) { (temporaryName, fileName) throws(FileSystemError) in
            try writeOnce(
                data,
                in: directory,
                temporaryName: temporaryName,
                fileName: fileName,
                replaceExisting: replaceExisting,
                path: absolutePath(folder, name),
                temporaryPath: absolutePath(folder, temporary)
            )
        }
    }

    /// What ``writeFile(_:named:ifFileNamed:accepts:)`` found.
    package enum GuardedWrite: Sendable, Equatable {
        /// The guard file was accepted and the file written.
        case written
        /// The folder holds no guard file; nothing was written.
        case guardMissing
        /// The guard file was refused; nothing was written.
        case guardRejected
    }

    /// Writes `data` as the file `name` right in this folder, atomically, when the file `guardName` beside it is
    /// there and `accepts` its contents, before the write and after it.
    ///
    /// The guard is read, and the file written, through one descriptor of the folder: both see the same folder
    /// even when its path is removed or replaced meanwhile, so a folder removed since it was opened fails the
    /// write (`ENOENT`) rather than the file landing in a new folder at the same path. The guard is read again
    /// once the file is in place: if it changed meanwhile (the folder was emptied and given another guard),
    /// the file is removed again and the write reports the guard it found. The folder is never created;
    /// neither file may be a symbolic link.
    package func writeFile(
        _ data: Data,
        named name: String,
        ifFileNamed guardName: String,
        accepts: (Data) -> Bool
    ) throws(FileSystemError) -> GuardedWrite {
        let directory = try openRoot(create: false)
        defer { _ = close(directory) }
        let before = try checkGuard(guardName, in: directory, accepts: accepts)
        guard before == .written else { return before }
        try writeOnce(data, named: name, in: directory, at: [], replaceExisting: true)
        let after = try checkGuard(guardName, in: directory, accepts: accepts)
        if after != .written { _ = unlinkat(directory, name, 0) }
        return after
    }

    /// Reads the guard file `name` in the open folder `directory`: `.written` stands for "accepted".
    private func checkGuard(
        _ name: String,
        in directory: Int32,
        accepts: (Data) -> Bool
    ) throws(FileSystemError) -> GuardedWrite {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { return .guardMissing }
            throw FileSystemError(.open, path: absolutePath([name]), code: code)
        }
        defer { _ = close(fd) }
        return accepts(try FileSystem.readAll(from: fd, path: absolutePath([name]))) ? .written : .guardRejected
    }

    /// ``writeOnce(_:named:in:at:replaceExisting:)`` in the open folder `directory`, with the names as C strings;
    /// `path` and `temporaryPath` are built only for an error or Data Protection.
    private func writeOnce(
        _ data: Data,
        in directory: Int32,
        temporaryName temporary: UnsafePointer<CChar>,
        fileName name: UnsafePointer<CChar>,
        replaceExisting: Bool,
        path: @autoclosure () -> String,
        temporaryPath: @autoclosure () -> String
    ) throws(FileSystemError) {
        let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, options.permissions)
        guard fd >= 0 else {
            let code = errno
            throw FileSystemError(.open, path: path(), code: code)
        }

        do throws(FileSystemError) {
            try FileSystem.writeAll(data, to: fd, path: path())
            if options.synchronize { try FileSystem.synchronize(fd, path: path()) }
            try applyProtection(toPath: temporaryPath())
        } catch {
            _ = close(fd)
            _ = unlinkat(directory, temporary, 0)
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            _ = unlinkat(directory, temporary, 0)
            throw FileSystemError(.close, path: path(), code: code)
        }

        if replaceExisting {
            guard renameat(directory, temporary, directory, name) == 0 else {
                var code = errno
                _ = unlinkat(directory, temporary, 0)
                if code == EEXIST || code == ENOTEMPTY || code == EISDIR {
                    code = Self.obstacle(named: name, in: directory, code: code)
                }
                throw FileSystemError(.rename, path: path(), code: code)
            }
        } else {
            let linked = linkat(directory, temporary, directory, name, 0) == 0
            var code = errno
            _ = unlinkat(directory, temporary, 0)
            guard linked else {
                if code == EEXIST { code = Self.obstacle(named: name, in: directory, code: code) }
                throw FileSystemError(.link, path: path(), code: code)
            }
        }
        if options.synchronize { _ = fsync(directory) }
    }

    /// Removes the regular file at `components`, then the folders that this leaves empty.
    ///
    /// A folder fails with `EISDIR` and a symbolic link with `ELOOP`: neither is removed.
    package func removeFile(_ components: [String]) throws(FileSystemError) {
        let (folder, requestedName) = try split(components)
        let chain = try openChain(folder, create: false)
        defer { for fd in chain { _ = close(fd) } }
        let directory = chain[chain.count - 1]
        let name = Self.storedName(of: requestedName, in: directory)

        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            throw FileSystemError(.remove, path: absolutePath(components), code: code)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw FileSystemError(.remove, path: absolutePath(components), code: EISDIR)
        case S_IFLNK: throw FileSystemError(.remove, path: absolutePath(components), code: ELOOP)
        default: throw FileSystemError(.remove, path: absolutePath(components), code: EINVAL)
        }
        guard unlinkat(directory, name, 0) == 0 else {
            let code = errno
            throw FileSystemError(.remove, path: absolutePath(components), code: code)
        }
        Self.removeEmptyFolders(folder, chain: chain)
    }
}

// MARK: Folders

extension FileSystem.ConfinedFolder {
    /// The files and folders directly in the folder at `components`, without temporary files.
    ///
    /// The empty list of components is this folder. The entries come in no particular order. A folder
    /// that does not exist, or is a file, lists as empty.
    package func listFolder(_ components: [String]) throws(FileSystemError) -> [FileSystem.Entry] {
        let directory: Int32
        do throws(FileSystemError) {
            directory = try openFolder(components[...], create: false)
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return [] }
            throw error
        }
        defer { _ = close(directory) }
        return try Self.listedEntries(inDirectory: directory, path: absolutePath(components[...], nil)).map(\.entry)
    }

    /// An entry as the store shows it: named in NFC, with the name it has on disk.
    private struct ListedEntry {
        /// The entry, its name in NFC.
        var entry: FileSystem.Entry
        /// The entry's name on disk: the NFC name itself, or its NFD spelling.
        var storedName: String
    }

    /// The entries of the folder open at `fd` that a path can reach, named in NFC.
    ///
    /// Left out: temporary files; names that are not UTF-8; names in another spelling than NFC or NFD, which
    /// ``storedName(of:in:)`` does not look for; and names whose NFC spelling is too long for a path (NFC
    /// lengthens a few scripts). Of two spellings of one name, the NFC one is listed, as lookups find it first.
    /// Everything listed can therefore be read, written and removed through its listed name, and the folder
    /// total counts exactly the listed files.
    private static func listedEntries(inDirectory fd: Int32, path: String) throws(FileSystemError) -> [ListedEntry] {
        var listed: [ListedEntry] = []
        var respelled = false
        for entry in try FileSystem.entries(ofDirectory: fd, path: path)
        where entry.hasUTF8Name && !FileSystem.isTemporaryName(entry.name) {
            // An ASCII name is its own NFC spelling. (Swift compares strings by canonical equivalence, so other
            // spellings are told apart by their bytes.)
            if FileNameEncoding.isASCII(entry.name) {
                listed.append(ListedEntry(entry: entry, storedName: entry.name))
                continue
            }
            let canonical = FileNameEncoding.canonicalForm(of: entry.name)
            if canonical.utf8.elementsEqual(entry.name.utf8) {
                listed.append(ListedEntry(entry: entry, storedName: entry.name))
                continue
            }
            guard canonical.utf8.count <= FileNameEncoding.maximumNameLength,
                entry.name.utf8.elementsEqual(canonical.decomposedStringWithCanonicalMapping.utf8)
            else { continue }
            var renamed = entry
            renamed.name = canonical
            respelled = true
            listed.append(ListedEntry(entry: renamed, storedName: entry.name))
        }
        guard respelled else { return listed }
        // An NFD name whose NFC spelling is on disk too is hidden behind it.
        let exact = Set(listed.filter { $0.storedName.utf8.elementsEqual($0.entry.name.utf8) }.map(\.entry.name))
        return listed.filter { $0.storedName.utf8.elementsEqual($0.entry.name.utf8) || !exact.contains($0.entry.name) }
    }

    /// The sum of the sizes of the regular files in the folder and all folders beneath it.
    ///
    /// Temporary files are not counted and symbolic links are not followed. Zero when the folder does not
    /// exist.
    package func totalFileSize() throws(FileSystemError) -> Int {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else {
            if errno == ENOENT { return 0 }
            throw FileSystemError(.open, path: path, code: errno)
        }
        defer { _ = close(root) }
        return try Self.totalFileSize(inDirectory: root, path: path)
    }

    private static func totalFileSize(inDirectory fd: Int32, path: String) throws(FileSystemError) -> Int {
        var total = 0
        // Exactly the files a listing shows are counted.
        for listed in try listedEntries(inDirectory: fd, path: path) {
            let name = listed.storedName
            switch listed.entry.kind {
            case .file:
                var info = stat()
                // A file removed since the listing counts as nothing. `withCString` passes a short name from the
                // stack, where the implicit conversion would allocate a copy of each.
                let found = name.withCString { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
                guard found else { continue }
                if (info.st_mode & S_IFMT) == S_IFREG { total += Int(info.st_size) }
            case .directory:
                let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else {
                    let code = errno
                    // Removed, or replaced by a file or a link, since the listing: nothing to count.
                    if code == ENOENT || code == ENOTDIR || code == ELOOP || code == EMLINK { continue }
                    throw FileSystemError(.open, path: path + "/" + name, code: code)
                }
                defer { _ = close(child) }
                total += try totalFileSize(inDirectory: child, path: path + "/" + name)
            case .symbolicLink, .other:
                continue
            }
        }
        return total
    }

    /// Removes the temporary files of dead processes, and empty folders, in the folder and beneath it.
    ///
    /// Returns how many temporary files it removed.
    /// Errors are ignored: what cannot be removed now is tried again the next time. Symbolic links are
    /// never followed, and temporaries of running processes are kept.
    @discardableResult
    package func removeOrphanedTemporaryFiles() -> Int {
        let root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return 0 }
        defer { _ = close(root) }
        return Self.removeOrphans(inDirectory: root, path: path)
    }

    private static func removeOrphans(inDirectory fd: Int32, path: String) -> Int {
        guard let entries = try? FileSystem.entries(ofDirectory: fd, path: path) else { return 0 }
        var removed = 0
        for entry in entries {
            let childPath = path + "/" + entry.name
            if FileSystem.isOrphanedTemporaryFile(named: entry.name) {
                if entry.kind == .directory {
                    if (try? FileSystem.removeDirectory(named: entry.name, in: fd, path: childPath)) != nil {
                        removed += 1
                    }
                } else if unlinkat(fd, entry.name, 0) == 0 {
                    removed += 1
                }
            } else if entry.kind == .directory && !FileSystem.isTemporaryName(entry.name) {
                let child = openat(fd, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { continue }
                removed += removeOrphans(inDirectory: child, path: childPath)
                _ = close(child)
                // Fails, as it should, unless the folder is now empty.
                _ = unlinkat(fd, entry.name, AT_REMOVEDIR)
            }
        }
        return removed
    }

    /// Removes the folder and everything in it, at once: see ``FileSystem/removeDirectoryTree(atPath:)``.
    package func removeAll() throws(FileSystemError) {
        try FileSystem.removeDirectoryTree(atPath: path)
    }
}

// MARK: Walking

extension FileSystem.ConfinedFolder {
    private func split(_ components: [String]) throws(FileSystemError) -> (ArraySlice<String>, String) {
        guard let name = components.last else { throw FileSystemError(.open, path: path, code: EINVAL) }
        return (components.dropLast(), name)
    }

    /// Opens the folder at `components`, creating missing folders when `create` is set.
    ///
    /// The caller closes the descriptor.
    private func openFolder(_ components: ArraySlice<String>, create: Bool) throws(FileSystemError) -> Int32 {
        if components.isEmpty { return try openRoot(create: create) }
        let chain = try openChain(components, create: create)
        for fd in chain.dropLast() { _ = close(fd) }
        return chain[chain.count - 1]
    }

    /// Opens this folder and each folder on the way to `components`, never following a link below it.
    ///
    /// Returns the descriptors, this folder's first; the caller closes them.
    private func openChain(_ components: ArraySlice<String>, create: Bool) throws(FileSystemError) -> [Int32] {
        var chain = [try openRoot(create: create)]
        chain.reserveCapacity(components.count + 1)
        for index in components.indices {
            let parent = chain[chain.count - 1]
            let name = Self.storedName(of: components[index], in: parent)
            var fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0 && errno == ENOENT && create && options.createsFolders {
                if mkdirat(parent, name, options.directoryPermissions) == 0 {
                    do throws(FileSystemError) {
                        try applyProtection(toPath: absolutePath(components[...index], nil))
                    } catch {
                        for descriptor in chain { _ = close(descriptor) }
                        throw error
                    }
                } else if errno != EEXIST {
                    let code = errno
                    for descriptor in chain { _ = close(descriptor) }
                    throw FileSystemError(.createDirectory, path: absolutePath(components[...index], nil), code: code)
                }
                fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard fd >= 0 else {
                let code = Self.obstacle(named: name, in: parent, code: errno)
                for descriptor in chain { _ = close(descriptor) }
                throw FileSystemError(.open, path: absolutePath(components[...index], nil), code: code)
            }
            chain.append(fd)
        }
        return chain
    }

    /// Opens this folder by its path, creating it and missing parents when `create` is set.
    private func openRoot(create: Bool) throws(FileSystemError) -> Int32 {
        func openPath() -> Int32 { path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } }
        var root = openPath()
        if root < 0 && errno == ENOENT && create && options.createsFolders {
            try FileSystem.createDirectories(
                atPath: path,
                permissions: options.directoryPermissions,
                protection: options.protection
            )
            root = openPath()
        }
        guard root >= 0 else { throw FileSystemError(.open, path: path, code: errno) }
        return root
    }

    /// Removes the folders at the end of `components` that are empty, innermost first; errors are ignored.
    private func removeEmptyFolders(_ components: ArraySlice<String>) {
        guard !components.isEmpty, let chain = try? openChain(components, create: false) else { return }
        Self.removeEmptyFolders(components, chain: chain)
        for fd in chain { _ = close(fd) }
    }

    /// Removes the folders at the end of `components` that are empty, innermost first.
    ///
    /// Goes through the descriptors of ``openChain(_:create:)``, and stops at the first folder that is not
    /// empty.
    private static func removeEmptyFolders(_ components: ArraySlice<String>, chain: [Int32]) {
        var depth = components.count
        while depth > 0 {
            let name = storedName(of: components[components.startIndex + depth - 1], in: chain[depth - 1])
            guard unlinkat(chain[depth - 1], name, AT_REMOVEDIR) == 0 else { return }
            depth -= 1
        }
    }

    /// The name that `name`, in NFC, is stored under in `directory`: `name` itself, or its NFD spelling.
    ///
    /// A name in NFD was written by another program or copied from an HFS+ volume. The NFC spelling is tried
    /// first, and is the answer whenever something has it or neither spelling exists; an ASCII name has one
    /// spelling and costs nothing. At most one `fstatat` per spelling: no folder is listed.
    private static func storedName(of name: String, in directory: Int32) -> String {
        guard !FileNameEncoding.isASCII(name) else { return name }
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) != 0, errno == ENOENT else { return name }
        let decomposed = name.decomposedStringWithCanonicalMapping
        guard !decomposed.utf8.elementsEqual(name.utf8),
            fstatat(directory, decomposed, &info, AT_SYMLINK_NOFOLLOW) == 0
        else { return name }
        return decomposed
    }

    /// The precise reason `name` in `directory` could not be used as asked.
    ///
    /// A symbolic link gives `ELOOP`, a folder `EISDIR` and another kind of file `ENOTDIR`, where the call
    /// needed something else. Other codes are returned as they are.
    private static func obstacle(named name: UnsafePointer<CChar>, in directory: Int32, code: Int32) -> Int32 {
        guard
            code == ENOTDIR || code == ELOOP || code == EMLINK || code == EEXIST || code == ENOTEMPTY
                || code == EISDIR
        else { return code }
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return code }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return ELOOP
        case S_IFDIR: return code == EEXIST || code == ENOTEMPTY || code == EISDIR ? EISDIR : code
        default: return code == ENOTDIR || code == ELOOP || code == EMLINK ? ENOTDIR : code
        }
    }

    private func applyProtection(toPath path: @autoclosure () -> String) throws(FileSystemError) {
        #if canImport(Darwin) && !os(macOS)
        try FileSystem.applyProtection(options.protection, toPath: path())
        #endif
    }

    private func absolutePath(_ components: [String]) -> String {
        absolutePath(components.dropLast(), components.last)
    }

    private func absolutePath(_ folder: ArraySlice<String>, _ name: String?) -> String {
        var result = path
        for component in folder { result += "/" + component }
        if let name { result += "/" + name }
        return result
    }
}

// MARK: Removing folders by descriptor

extension FileSystem {
    /// Removes the orphaned temporary files and folders made for an entry named `name`.
    ///
    /// Looks directly in the folder at `path`, for example for the hidden folder that a crashed
    /// ``removeDirectoryTree(atPath:)`` left (see ``isOrphanedTemporaryFile(named:)``). Returns how many it
    /// removed; errors are ignored.
    @discardableResult
    package static func removeOrphanedTemporaryFiles(inDirectory path: String, forName name: String) -> Int {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { _ = close(fd) }
        guard let entries = try? entries(ofDirectory: fd, path: path) else { return 0 }
        let prefix = temporaryNamePrefix(for: name)
        var removed = 0
        for entry in entries where entry.name.hasPrefix(prefix) && isOrphanedTemporaryFile(named: entry.name) {
            let childPath = path + "/" + entry.name
            if entry.kind == .directory {
                if (try? removeDirectory(named: entry.name, in: fd, path: childPath)) != nil { removed += 1 }
            } else if unlinkat(fd, entry.name, 0) == 0 {
                removed += 1
            }
        }
        return removed
    }

    /// Removes the folder `name` in the folder open at `fd`, and everything in it, without following links.
    static func removeDirectory(named name: String, in fd: Int32, path: String) throws(FileSystemError) {
        try removeDirectory(Entry(name: name, kind: .directory), in: fd, path: path)
    }

    /// Removes the folder `entry` in the folder open at `fd`, and everything in it, without following links.
    static func removeDirectory(_ entry: Entry, in fd: Int32, path: String) throws(FileSystemError) {
        let result = entry.withSystemName { name in
            Result { () throws(FileSystemError) in try removeDirectory(systemName: name, in: fd, path: path) }
        }
        try result.get()
    }

    private static func removeDirectory(
        systemName name: UnsafePointer<CChar>,
        in fd: Int32,
        path: String
    ) throws(FileSystemError) {
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard child >= 0 else {
            let code = errno
            if code == ENOENT { return }
            // Replaced by a link or a file since it was listed: remove that, never what a link leads to.
            if code == ELOOP || code == ENOTDIR || code == EMLINK {
                guard unlinkat(fd, name, 0) == 0 || errno == ENOENT else {
                    throw FileSystemError(.remove, path: path, code: errno)
                }
                return
            }
            throw FileSystemError(.open, path: path, code: code)
        }
        defer { _ = close(child) }
        var attempts = 0
        while true {
            try removeContents(ofDirectory: child, path: path)
            if unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return }
            let code = errno
            attempts += 1
            // A writer holding the folder open may have added a file since it was listed: empty it again.
            guard code == ENOTEMPTY || code == EEXIST, attempts < 8 else {
                throw FileSystemError(.remove, path: path, code: code)
            }
        }
    }

    /// Removes everything in the folder open at `fd`, which stays.
    ///
    /// Folders inside are opened with
    /// `O_NOFOLLOW` from their parent's descriptor, so a link is removed itself and never followed, even
    /// if it replaces a folder while the removal runs. The listing is read in full before anything is
    /// removed, as some file systems skip entries when a folder changes while it is being read.
    static func removeContents(ofDirectory fd: Int32, path: String) throws(FileSystemError) {
        for entry in try entries(ofDirectory: fd, path: path) {
            let childPath = path + "/" + entry.name
            if entry.kind == .directory {
                try removeDirectory(entry, in: fd, path: childPath)
            } else {
                // By the name's own bytes: a name that is not UTF-8 is removed too, so the folder can go.
                guard entry.withSystemName({ unlinkat(fd, $0, 0) }) == 0 || errno == ENOENT else {
                    throw FileSystemError(.remove, path: childPath, code: errno)
                }
            }
        }
    }
}
