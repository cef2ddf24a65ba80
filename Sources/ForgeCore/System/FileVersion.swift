/// What tells one state of a file's contents from another without reading them: the file it is (device and inode),
/// its size and its last modification time, to the nanosecond the file system keeps.
///
/// Two reads of a file that give the same version most likely read the same contents; a file rewritten in place to
/// the same size within one tick of the file system's clock keeps its version, so a version alone cannot prove that
/// nothing changed.
package struct FileVersion: Sendable, Hashable {
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode number on that device.
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int64
    /// The seconds of the last modification time, since 1970.
    package var modificationSeconds: Int64
    /// The nanoseconds of the last modification time, past its seconds.
    package var modificationNanoseconds: Int64

    /// A version from its parts.
    package init(device: UInt64, inode: UInt64, size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64)
    {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
    }
}
