internal import Foundation

// The names in an open folder, reached with the `…at` calls: their status, renaming, linking, making, removing,
// listing, and the obstacle a failed call met.

extension Descriptor {
    /// The status of `name` in this folder, a link not followed; nil when nothing has that name.
    package func status(of name: EntryName) throws(FileSystemError) -> FileStatus? {
        var info = stat()
        guard systemCall(.status, on: child(name), { fstatat(fd, name.systemName, &info, AT_SYMLINK_NOFOLLOW) }) == 0
        else {
            if errno == ENOENT { return nil }
            throw .current(.stat, path: child(name))
        }
        return FileStatus(info)
    }

    /// The kind and version of `name` in this folder, a link not followed; nil when nothing has that name.
    package func version(of name: EntryName) throws(FileSystemError) -> (kind: FileStatus.Kind, version: FileVersion)? {
        var info = stat()
        guard systemCall(.status, on: child(name), { fstatat(fd, name.systemName, &info, AT_SYMLINK_NOFOLLOW) }) == 0
        else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .current(.stat, path: child(name))
        }
        return (FileStatus(info).kind, FileVersion(info))
    }

    /// Renames `name` to `newName` in this folder, replacing what `newName` names unless it is a folder.
    package func rename(_ name: EntryName, to newName: EntryName) throws(FileSystemError) {
        let result = systemCall(.rename, on: child(newName)) {
            renameat(fd, name.systemName, fd, newName.systemName)
        }
        guard result == 0 else { throw obstacle(.rename, newName) }
    }

    /// Gives the file `name` a second name, `newName`, in this folder; fails with `EEXIST` when it is taken.
    package func link(_ name: EntryName, as newName: EntryName) throws(FileSystemError) {
        let result = systemCall(.link, on: child(newName)) {
            linkat(fd, name.systemName, fd, newName.systemName, 0)
        }
        guard result == 0 else { throw obstacle(.link, newName) }
    }

    /// Creates the folder `name` in this folder; fails with `EEXIST` when the name is taken.
    package func makeFolder(_ name: EntryName, permissions: UInt16) throws(FileSystemError) {
        guard systemCall(.makeFolder, on: child(name), { mkdirat(fd, name.systemName, mode_t(permissions)) }) == 0
        else {
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
        let result = systemCall(.remove, on: child(name)) {
            unlinkat(fd, name.systemName, kind == .folder ? AT_REMOVEDIR : 0)
        }
        guard result == 0 else {
            throw .current(.remove, path: child(name))
        }
    }

    /// The entries of this folder but `.` and `..`, in no order, read in full before any is used (some file systems
    /// skip entries of a folder that changes while it is read); a kind the listing omits is asked of `fstatat`.
    package func entries() throws(FileSystemError) -> [FolderEntry] {
        // `fdopendir` takes its descriptor over, so it gets a duplicate, which shares this one's read position.
        let owned = systemCall(.list, on: path) { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
        guard owned >= 0, let directory = systemCall(.list, on: path, { fdopendir(owned) }) else {
            let error = FileSystemError.current(.list, path: path)
            if owned >= 0 { _ = closeDescriptor(owned, path: path, releasing: true) }
            throw error
        }
        defer { _ = systemCall(.release, on: path) { closedir(directory) } }
        rewinddir(directory)
        var entries: [FolderEntry] = []
        while true {
            // `readdir` returns nil at the end and on a failure, which only `errno` tells apart: it is cleared right
            // before the call.
            let entry = systemCall(.list, on: path) { () -> UnsafeMutablePointer<dirent>? in
                errno = 0
                return readdir(directory)
            }
            guard let entry else {
                guard errno == 0 else { throw .current(.list, path: path) }
                break
            }
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
    ///
    /// ``openEntry(_:_:)``, in `Descriptor.swift`, names its obstacle with it too.
    func obstacle(_ operation: FileSystemError.Operation, _ name: EntryName) -> FileSystemError {
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
}
