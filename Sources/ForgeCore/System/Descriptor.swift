internal import Foundation

#if !canImport(Darwin)
internal import CForgeSystem
#endif

/// An open file or folder, which closes itself when the last reference to it goes; a folder's descriptor reaches
/// the names inside it with the `…at` calls, never following a link the call names (that fails with `ELOOP`).
///
/// This file (opening and closing) and its extensions hold every call the stores make to the C library and every
/// reading of `errno`: `Descriptor+Reading.swift`, `Descriptor+Writing.swift`, `Descriptor+Folders.swift` (the names
/// in an open folder), `Descriptor+Probes.swift` (a path or a process, without a descriptor),
/// `FileSystemError+Current.swift` (`errno` as an error) and `EntryName+SystemName.swift` (a name as the calls take
/// it). `SystemCodes.swift` reads the codes and statuses they return. They import Foundation alone for the C library,
/// which it re-exports on every platform (Darwin, Glibc, Musl, Android's Bionic).
package final class Descriptor {
    /// The file descriptor; -1 once closed.
    ///
    /// The extensions in the `Descriptor+…` files read it; only ``close()`` changes it.
    private(set) var fd: Int32
    /// Where the descriptor was opened, for errors.
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { if fd >= 0 { _ = closeDescriptor(fd, path: path, releasing: true) } }

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
        /// An existing file, to add to its end: every write lands after what is there, whoever else writes; a FIFO
        /// planted in its place does not block the open.
        case append

        /// The `open` flags, and the permissions of a file it creates.
        fileprivate var flags: (Int32, mode_t) {
            switch self {
            case .read: (O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)
            case .folder: (O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            case .createNew(let permissions): (O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
            case .lock: (O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            case .append: (O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0)
            }
        }
    }

    /// Opens `path`; a symbolic link as its last name is followed only when `followsLink` is set.
    package convenience init(opening path: String, _ mode: Mode, followsLink: Bool = true) throws(FileSystemError) {
        let fd = systemCall(.open, on: path) { open(path, mode.flags.0 | (followsLink ? 0 : O_NOFOLLOW), mode.flags.1) }
        guard fd >= 0 else { throw .current(.open, path: path) }
        self.init(fd: fd, path: path)
    }

    /// Opens `name` in this folder, never following a symbolic link named `name`.
    package func openEntry(_ name: EntryName, _ mode: Mode) throws(FileSystemError) -> Descriptor {
        let fd = systemCall(.open, on: child(name)) {
            openat(self.fd, name.systemName, mode.flags.0 | O_NOFOLLOW, mode.flags.1)
        }
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
        #if !canImport(Darwin)
        guard Self.kernelOpensBeneath else { return nil }
        #endif
        let fullPath = self.path + "/" + names.map(\.string).joined(separator: "/")
        let fd = systemCall(.open, on: fullPath) {
            #if canImport(Darwin)
            openat(self.fd, path, mode.flags.0 | O_NOFOLLOW | O_NOFOLLOW_ANY, mode.flags.1)
            #else
            forge_open_beneath(self.fd, path, mode.flags.0 | O_NOFOLLOW, UInt32(mode.flags.1))
            #endif
        }
        guard fd >= 0 else { throw .current(.open, path: fullPath) }
        return Descriptor(fd: fd, path: fullPath)
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
        let fd = systemCall(.open, on: systemPath) {
            systemPath.withCString { address -> Int32 in
                guard followsNoLink else { return open(address, flags, permissions) }
                #if canImport(Darwin)
                return open(address, flags | O_NOFOLLOW_ANY, permissions)
                #else
                return forge_open_without_links(address, flags, UInt32(permissions))
                #endif
            }
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
        _ = closeDescriptor(fd, path: "/", releasing: true)
        return true
    }()
    #endif

    /// Closes the descriptor now, to hear what the system reports (a network volume may report a failed write only
    /// here); otherwise it closes when it goes away.
    package func close() throws(FileSystemError) {
        let fd = self.fd
        self.fd = -1
        guard closeDescriptor(fd, path: path) == 0 else { throw .current(.close, path: path) }
    }

    /// The path of `name` in this folder, for errors.
    package func child(_ name: EntryName) -> String { path + "/" + name.string }
}

/// `close` of `fd`, opened on `path`, which the methods of ``Descriptor`` cannot name: its own ``Descriptor/close()``
/// hides it there; `releasing` when nothing reads its result.
///
/// Internal, not private, as the `Descriptor+…` files close descriptors too (a listing's duplicate, a probe's).
func closeDescriptor(_ fd: Int32, path: String, releasing: Bool = false) -> Int32 {
    systemCall(releasing ? .release : .close, on: path) { close(fd) }
}
