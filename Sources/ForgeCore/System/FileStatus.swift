package import Foundation

/// What the system says of a file or folder: its kind, size, last change and permission bits.
package struct FileStatus: Sendable, Equatable {
    /// What a file-system entry is.
    package enum Kind: Sendable, Equatable {
        /// A regular file.
        case file
        /// A folder.
        case folder
        /// A symbolic link, never followed.
        case symbolicLink
        /// Anything else: a FIFO, a socket, a device.
        case other
    }

    /// What the entry is.
    package var kind: Kind
    /// The size in bytes.
    package var size: Int
    /// When the contents last changed.
    package var modificationDate: Date
    /// The permission bits (`0o7777` of the mode).
    package var permissions: UInt16
    /// The file it is and the state of its contents, when the status came from the system (nil when built from
    /// parts).
    package var version: FileVersion?

    /// A status from its parts.
    package init(kind: Kind, size: Int, modificationDate: Date, permissions: UInt16, version: FileVersion? = nil) {
        self.kind = kind
        self.size = size
        self.modificationDate = modificationDate
        self.permissions = permissions
        self.version = version
    }

    /// The permission bits that let anyone but the owner read, write or search: `0o077`.
    package static let groupAndOtherPermissions: UInt16 = 0o077
}
