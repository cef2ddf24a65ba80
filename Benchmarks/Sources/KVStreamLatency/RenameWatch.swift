#if canImport(Glibc)
import Glibc

/// The limit's way to hear of another process's write: one inotify descriptor on the folder, read with a blocking
/// `read` by the thread that waits, until the file is renamed into place.
///
/// It asks for the same events as the library's folder watch (a name created, written, renamed in or out, removed),
/// so it wakes as often per write; what it leaves out is the library's dispatch source, its queue, its own work and
/// the hop to the stream's consumer.
final class RenameWatch {
    /// The events the library's folder watch asks for.
    static let events = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)

    private let descriptor: Int32
    private let fileName: String

    /// Watches `folder` for `fileName` renamed into it; nil when inotify refuses.
    init?(folder: String, fileName: String) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, Self.events) >= 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.fileName = fileName
    }

    deinit { close(descriptor) }

    /// Blocks until the file is renamed into the folder; false when the descriptor cannot be read.
    func waitForRename() -> Bool {
        // On the stack: room for many events of short names, and no allocation per wait.
        withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 8) { buffer in
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if Self.events(in: UnsafeRawBufferPointer(buffer), count: count, renameInto: fileName) { return true }
            }
        }
    }

    /// Whether the first `count` bytes of `buffer`, events read from an inotify descriptor, tell of `fileName`
    /// renamed into the watched folder.
    static func events(in buffer: UnsafeRawBufferPointer, count: Int, renameInto fileName: String) -> Bool {
        var offset = 0
        var renamed = false
        while offset + MemoryLayout<inotify_event>.size <= count {
            let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + MemoryLayout<inotify_event>.size
            let name = buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 }
            offset = nameStart + length
            if mask & UInt32(IN_MOVED_TO) != 0 && String(decoding: name, as: UTF8.self) == fileName { renamed = true }
        }
        return renamed
    }
}
#endif
