internal import Foundation

// Questions asked of a path or a process, without a descriptor to keep.

extension Descriptor {
    /// The version of the file at `path`, a link followed; nil when nothing is there.
    package static func version(ofFileAt path: String) throws(FileSystemError) -> FileVersion? {
        var info = stat()
        guard systemCall(.status, on: path, { stat(path, &info) }) == 0 else {
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
        let fd = systemCall(.open, on: path) { open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC) }
        if fd >= 0 {
            _ = closeDescriptor(fd, path: path, releasing: true)
            return nil
        }
        let error = FileSystemError.current(.open, path: path)
        guard error.isMissing else { return error }
        let folder = (path as NSString).deletingLastPathComponent
        guard systemCall(.access, on: folder, { access(folder, W_OK | X_OK) }) != 0 else { return nil }
        return .current(.open, path: folder)
    }

    /// Whether no process has the id `pid` any more.
    package static func processIsGone(_ pid: Int32) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }
}
