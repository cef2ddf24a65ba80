package import Foundation

/// The folder of one disk store, and the only way the stores reach what is in it.
///
/// Every disk store holds one: `DiskKVStore` (one file per key), `DiskFileStore` (files by relative path) and
/// the vault (one file per item, beside its header). The folder itself is opened by its path, so a base folder
/// that is a link (a symlinked home folder) is followed; everything beneath it is reached from the folder's
/// descriptor, never following a symbolic link: in one call where the kernel can refuse links on the whole way
/// (`openat2` on Linux 5.6 and later, `O_NOFOLLOW_ANY` on Apple platforms), else one name at a time. A link
/// planted anywhere inside, as a file or as a folder on the way, fails the call with `ELOOP` instead of leading it
/// outside.
///
/// Errors are ``FileSystemError``s whose codes say what stood in the way: `ENOENT` nothing, `ENOTDIR` a file
/// where a folder was needed, `EISDIR` a folder where a file was needed, `ELOOP` a symbolic link, `EEXIST` a
/// file that may not be replaced. Folders beneath the store folder are made by writes and exist only while they
/// hold something: a removal removes the folders it leaves empty, and so does a write that fails.
package struct StoreFolder: Sendable {
    /// The folder's absolute path.
    package let path: String
    /// How files and folders are written.
    package let options: Options

    /// How a store's files and folders are written.
    package struct Options: Sendable {
        /// The permission bits of new files, before the umask.
        package var filePermissions: UInt16 = 0o644
        /// The permission bits of new folders, before the umask.
        package var folderPermissions: UInt16 = 0o755
        /// The Data Protection level of new files and folders, on platforms that have it.
        package var protection: FileProtection? = nil
        /// Whether a write is flushed to the device before it returns.
        package var durability: Durability = .atomic
        /// When false, writes never create the store folder: a write into a missing folder fails with `ENOENT`.
        package var createsFolder = true
        /// Whether a path beneath the folder is opened in one call, where the system can refuse links on the way.
        ///
        /// When false, or where the system cannot, it is opened one name at a time. Both refuse links alike: the
        /// tests run the link checks both ways.
        package var opensPathsInOneCall = true
        /// Where the folder counts its reads and listings, for a test that proves a call reads nothing; nil outside
        /// the tests.
        package var accessLog: FolderAccessLog? = nil
        /// Whether each write and remove holds a shared advisory lock (`flock`) of the folder while it changes a file.
        ///
        /// A conditional removal (``remove(_:if:)``) holds the exclusive one, so it sees no file change between its
        /// check and its removal. Off by default: only stores that remove files conditionally (the
        /// key-value store's reclaim of expired values) pay the lock.
        package var locksChanges = false

        /// Files `0o644`, folders `0o755`, no protection, not flushed, the folder made on the first write.
        package init() {}

        /// The defaults, with reads and listings counted in `accessLog`.
        package init(accessLog: FolderAccessLog?) {
            self.accessLog = accessLog
        }
    }

    /// The folder at `path`, which need not exist yet.
    package init(path: String, options: Options = Options()) {
        self.path = path
        self.options = options
    }

    /// The folder a disk store keeps `namespace` in, inside `directory`: the one place the stores turn their
    /// directory, namespace, protection and durability into a folder.
    package init(
        directory: StorageDirectory,
        namespace: String,
        protection: FileProtection? = nil,
        durability: Durability = .atomic,
        configure: (inout Options) -> Void = { _ in }
    ) {
        var options = Options()
        options.protection = protection
        options.durability = durability
        configure(&options)
        self.init(path: directory.folderURL(forNamespace: namespace).path, options: options)
    }

    /// Every kind of entry but a folder: what a store's removal of a key or item takes away.
    static let anythingButAFolder: Set<FileStatus.Kind> = [.file, .symbolicLink, .other]

    /// The folder's file URL.
    package var url: URL { URL(fileURLWithPath: path, isDirectory: true) }
}

// MARK: Files

extension StoreFolder {
    /// Reads the regular file `name` in the sub-folder `folders` (none: the store folder itself).
    package func read(_ name: String, in folders: ArraySlice<String> = []) throws(FileSystemError) -> Data {
        options.accessLog?.recordRead(of: name)
        if folders.isEmpty, let file = try? Descriptor.openPath(path, then: [name], .read, followsNoLink: false) {
            // A name right in the folder opens by its path, as the folder itself does, with the link check for
            // the name. A failure goes the long way below, which finds the reason.
            return try file.readAll()
        }
        if let file = try openInOneCall(folders + [name], .read, creating: false) { return try file.readAll() }
        return try walkAndRead(name, in: folders)
    }

    /// Reads the regular file `name` right in this folder from `offset` to its end, when it starts with `prefix`.
    ///
    /// For a file that only grows at its end: what was added since a reader read it to `offset`. Empty when the file
    /// ends before `offset`; nil when it does not start with `prefix` (another file took its name).
    package func read(_ name: String, from offset: Int, ifStartingWith prefix: Data) throws(FileSystemError) -> Data? {
        options.accessLog?.recordRead(of: name)
        let folder = try openRoot(creating: false)
        return try folder.openEntry(storedName(of: name, in: folder), .read)
            .readAll(from: offset, ifStartingWith: prefix)
    }

    /// Reads the regular file at `relative`, a checked path beneath the store folder.
    package func read(at relative: RelativePath) throws(FileSystemError) -> Data {
        try openForReading(at: relative).readAll()
    }

    /// Opens the file at `relative`, a checked path beneath the store folder, for reading.
    ///
    /// The whole path goes to the system as it is, split by it, so the names are split here only when it must walk.
    package func openForReading(at relative: RelativePath) throws(FileSystemError) -> Descriptor {
        options.accessLog?.recordRead(of: relative.string)
        if let file = try openInOneCall(CollectionOfOne(relative.string), .read, creating: false) { return file }
        let names = relative.components
        return try walkAndOpen(names.last ?? "", in: names.dropLast())
    }

    /// Reads the file `name` in `folders`, reached one name at a time.
    private func walkAndRead(_ name: String, in folders: ArraySlice<String>) throws(FileSystemError) -> Data {
        try walkAndOpen(name, in: folders).readAll()
    }

    /// Opens the file `name` in `folders` for reading, reached one name at a time.
    private func walkAndOpen(_ name: String, in folders: ArraySlice<String>) throws(FileSystemError) -> Descriptor {
        let folder = try walk(to: folders, from: openRoot(creating: false), creating: false)
        return try folder.openEntry(storedName(of: name, in: folder), .read)
    }

    /// The status of `name` in the sub-folder `folders`, a link not followed; nil when nothing is there.
    package func status(of name: String, in folders: ArraySlice<String> = []) throws(FileSystemError) -> FileStatus? {
        let folder: Descriptor
        do {
            folder = try openFolder(folders, creating: false)
        } catch  where error.isNotFound {
            return nil
        }
        return try folder.status(of: storedName(of: name, in: folder))
    }

    /// The statuses of `names`, right in this folder, links not followed, through one open of the folder: nil for a
    /// name with nothing there, and for every name when the folder is not there.
    ///
    /// Each name's status is asked in turn, in the order of `names`; a name whose status cannot be read has its error.
    package func statuses(of names: [String]) -> [Result<FileStatus?, FileSystemError>] {
        let folder: Descriptor
        do {
            folder = try openRoot(creating: false)
        } catch  where error.isNotFound {
            return names.map { _ in .success(nil) }
        } catch {
            return names.map { _ in .failure(error) }
        }
        return names.map { name in
            Result { () throws(FileSystemError) in try folder.status(of: storedName(of: name, in: folder)) }
        }
    }

    /// Writes `data` as the file `name` in the sub-folder `folders` atomically, creating the folders on the way.
    ///
    /// The data goes to a temporary file beside the target, which is then renamed over it, or, when `replacing`
    /// is false, linked to it: the link fails with `EEXIST` if anything is there, so there is no
    /// check-then-write race. Readers see the old file or the new one; a failed write leaves no temporary file
    /// and no folder it created. A write whose folder is removed under it (by a concurrent removal of the
    /// folder's last file) starts again. At `.flushed`, a flush of the folder that fails after the rename fails the
    /// write with the new file in place: readers see it, and it may not survive a power loss.
    package func write(
        _ data: Data,
        as name: String,
        in folders: ArraySlice<String> = [],
        replacing: Bool = true
    ) throws(FileSystemError) {
        var attempts = 0
        while true {
            do {
                let folder = try openFolder(folders, creating: true)
                lockForChange(folder)
                // A file stored under another Unicode spelling of `name` is replaced, so the folder keeps one file.
                try write(data, as: storedName(of: name, in: folder), into: folder, replacing: replacing)
                return
            } catch {
                attempts += 1
                // A folder on the way vanished after it was opened: go again.
                if error.isMissing && options.createsFolder && attempts < 8 { continue }
                removeEmptyFolders(folders)
                throw error
            }
        }
    }

    /// Writes `data` as `name` in the open `folder`, through a temporary file renamed (or linked) into place, flushed
    /// as `durability` (the folder's unless given) says.
    func write(
        _ data: Data,
        as name: EntryName,
        into folder: Descriptor,
        replacing: Bool,
        durability: Durability? = nil
    ) throws(FileSystemError) {
        let durability = durability ?? options.durability
        let temporary = EntryName(TemporaryName.make(for: name.string))
        let file = try folder.openEntry(temporary, .createNew(permissions: options.filePermissions))
        do {
            try file.writeAll(data)
            if durability == .flushed { try file.synchronize() }
            try file.close()
            try applyProtection(toPath: folder.child(temporary))
            if replacing {
                try folder.rename(temporary, to: name)
            } else {
                try folder.link(temporary, as: name)
                try? folder.remove(temporary, kinds: [.file])
            }
        } catch {
            try? folder.remove(temporary, kinds: [.file])
            throw error
        }
        // The file is in place, and readers see it; a flush of the folder that fails leaves its name possibly not on
        // the device, which a `.flushed` write promised: the caller hears it, as the write's failure.
        if durability == .flushed { try folder.synchronize() }
    }

    /// Removes the file `name` in the sub-folder `folders`, then the folders this leaves empty.
    ///
    /// A folder fails with `EISDIR`, nothing there with `ENOENT`. A symbolic link or another kind of file is
    /// removed itself, never what it leads to, unless `regularFilesOnly` is set: then it fails with `ELOOP` or
    /// `EINVAL` and stays.
    package func remove(
        _ name: String,
        in folders: ArraySlice<String> = [],
        regularFilesOnly: Bool = false
    ) throws(FileSystemError) {
        let folder = try openFolder(folders, creating: false)
        lockForChange(folder)
        try folder.remove(storedName(of: name, in: folder), kinds: regularFilesOnly ? [.file] : Self.anythingButAFolder)
        removeEmptyFolders(folders)
    }

    /// Takes the shared advisory lock of the open `folder` for one change, when ``Options/locksChanges`` asks for it.
    ///
    /// The lock is held until `folder` is closed, at the end of the change. A lock the system refuses (a file system without
    /// `flock`) leaves the change unlocked rather than failing it.
    func lockForChange(_ folder: Descriptor) {
        guard options.locksChanges else { return }
        _ = folder.lock(exclusive: false, waits: true)
    }

    /// Applies the Data Protection level to what `path` names, on platforms that have it.
    func applyProtection(toPath path: @autoclosure () -> String) throws(FileSystemError) {
        #if canImport(Darwin) && !os(macOS)
        guard let protection = options.protection else { return }
        do {
            try FileManager.default.setAttributes([.protectionKey: protection.foundationValue], ofItemAtPath: path())
        } catch {
            throw FileSystemError(.setAttributes, path: path(), code: EPERM)
        }
        #endif
    }
}

#if canImport(Darwin) && !os(macOS)
extension FileProtection {
    /// The Foundation attribute for this level.
    fileprivate var foundationValue: FileProtectionType {
        switch self {
        case .none: .none
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        }
    }
}
#endif
