internal import Foundation

// The system's codes read as the stores' types: `errno` values as predicates and a `FailureReason`, `stat` as a
// `FileStatus`. Beside `Descriptor.swift` and its `Descriptor+…` extensions, the only other file that sees the C
// library (but the folder notifications: `Inotify.swift`, `FolderWatch+Inotify.swift`, `FolderWatch+Dispatch.swift`).

extension FileSystemError {
    /// No file or folder exists at the path (or a file stands where a folder on the way should be).
    package var isNotFound: Bool { code == ENOENT || code == ENOTDIR }
    /// Nothing exists at the path, while the folders on the way do.
    package var isMissing: Bool { code == ENOENT }
    /// Something already exists at the path.
    package var isAlreadyExists: Bool { code == EEXIST }
    /// A symbolic link stands where it may not be followed.
    package var isSymbolicLink: Bool { code == ELOOP || code == EMLINK }
    /// A folder that had to be empty was not.
    package var isNotEmpty: Bool { code == ENOTEMPTY || code == EEXIST }
    /// The system's text for the error, for example "No space left on device".
    package var message: String { String(cString: strerror(code)) }

    /// The typed cause of the error, as the stores report it; ``description`` for a code it does not name.
    package var reason: FailureReason {
        switch code {
        case ENOENT: .notFound
        case ENOSPC, EDQUOT: .outOfSpace
        case EROFS: .readOnlyVolume
        case EACCES, EPERM: .permissionDenied
        case EISDIR: .isFolder
        case ENOTDIR: .parentIsFile
        case ELOOP, EMLINK: .symbolicLink
        case EIO: .ioError
        default: .other(description)
        }
    }
}

extension StoreFailure {
    /// The `errno` a disk call would have returned for this fault.
    package var code: Int32 {
        switch self {
        case .outOfSpace: ENOSPC
        case .permissionDenied: EACCES
        case .deviceLocked: EPERM
        case .corruptData, .error: EIO
        }
    }
}

extension stat {
    /// The last modification time, under its name on this platform.
    fileprivate var modificationTime: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }
}

extension FileVersion {
    /// The device, inode, size and modification time in a file's `stat`.
    init(_ info: stat) {
        self.init(
            device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size),
            modificationSeconds: Int64(info.modificationTime.tv_sec),
            modificationNanoseconds: Int64(info.modificationTime.tv_nsec)
        )
    }
}

extension FileStatus {
    /// The kind, size, date, permissions and version in a file's `stat`.
    init(_ info: stat) {
        let time = info.modificationTime
        let type = info.st_mode & S_IFMT
        self.init(
            kind: type == S_IFREG ? .file : type == S_IFDIR ? .folder : type == S_IFLNK ? .symbolicLink : .other,
            size: Int(info.st_size),
            modificationDate: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9),
            permissions: UInt16(truncatingIfNeeded: info.st_mode & 0o7777),
            version: FileVersion(info)
        )
    }
}

extension FileStatus.Kind {
    /// The kind a folder listing reports (`d_type`); nil when the file system does not say.
    init?(listed type: Int32) {
        guard type != DT_UNKNOWN else { return nil }
        self = type == DT_REG ? .file : type == DT_DIR ? .folder : type == DT_LNK ? .symbolicLink : .other
    }
}
