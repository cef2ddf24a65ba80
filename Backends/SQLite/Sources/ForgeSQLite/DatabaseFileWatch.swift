internal import Dispatch
internal import Foundation

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
@preconcurrency internal import Glibc
#elseif canImport(Musl)
@preconcurrency internal import Musl
#endif

/// A watch of a database file and its write-ahead log, which calls its handler when either may have changed: no
/// polling, the operating system tells of every write.
///
/// A commit of any connection or process writes the log (`-wal`) in WAL mode, and the main file in the other journal
/// modes and when the log is checkpointed; this watch tells of a write to either, and of either appearing or going.
/// It tells that something may have changed, not what: ``DatabaseChanges`` asks the database whether another
/// connection committed. On Linux the database's folder is watched with inotify (so a log made after the watch starts
/// is seen), keeping the events of the two files; on Apple platforms each file has a dispatch source, and the folder
/// one for a file that appears or is replaced.
final class DatabaseFileWatch: Sendable {
    /// The names in the folder whose changes are told: the database's file and its log.
    private let names: Set<String>
    /// The folder of the database.
    private let folder: String
    /// What runs the sources' handlers, one at a time.
    private let queue = DispatchQueue(label: "ForgeSQLite.DatabaseFileWatch")
    /// The system's watch while it runs; nil once stopped.
    private let sources = Locked<Sources?>(nil)

    /// Starts watching the database file at `path`; `onChange` is called on a queue of the watch, after every write
    /// to the file or its log, until ``stop()``.
    init(path: String, onChange: @escaping @Sendable () -> Void) {
        let url = URL(fileURLWithPath: path)
        folder = url.deletingLastPathComponent().path
        names = [url.lastPathComponent, url.lastPathComponent + "-wal"]
        let sources = Sources(folder: folder, names: names, queue: queue, onChange: onChange)
        self.sources.withLock { $0 = sources }
        sources.start()
    }

    /// Stops the watch: `onChange` is not called after the handler that runs now, if any, returns.
    func stop() {
        let stopped = sources.withLock { sources in
            defer { sources = nil }
            return sources
        }
        stopped?.stop()
    }

    deinit { stop() }
}

#if canImport(Glibc) || canImport(Musl)
extension DatabaseFileWatch {
    /// An inotify instance of its own, watching the folder, read by a dispatch source on the watch's queue.
    ///
    /// Unchecked: the dispatch source is not marked `Sendable` on Linux; it is made in `start` and cancelled in `stop`,
    /// each called once, and the descriptor is closed by its cancel handler only.
    private final class Sources: @unchecked Sendable {
        private static let events = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)

        private let folder: String
        private let names: Set<String>
        private let queue: DispatchQueue
        private let onChange: @Sendable () -> Void
        private let descriptor: Int32
        private var source: (any DispatchSourceRead)?

        init(folder: String, names: Set<String>, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
            self.folder = folder
            self.names = names
            self.queue = queue
            self.onChange = onChange
            descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        }

        func start() {
            guard descriptor >= 0 else { return }
            _ = inotify_add_watch(descriptor, folder, Self.events | UInt32(IN_ONLYDIR))
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [self] in readEvents() }
            source.setCancelHandler { [descriptor] in _ = close(descriptor) }
            self.source = source
            source.resume()
        }

        func stop() {
            guard source != nil else {
                if descriptor >= 0 { _ = close(descriptor) }
                return
            }
            // Cancelled on the queue, after any handler that runs now; its cancel handler closes the descriptor.
            queue.async { [self] in source?.cancel() }
        }

        /// Reads every pending event, and calls `onChange` once when one of them is of the database's files (or the
        /// queue overflowed, losing events).
        private func readEvents() {
            guard let source, !source.isCancelled else { return }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var changed = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let name = bytes[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }
                        offset = nameStart + length
                        if mask & UInt32(IN_Q_OVERFLOW) != 0 || names.contains(String(decoding: name, as: UTF8.self)) {
                            changed = true
                        }
                    }
                }
            }
            if changed { onChange() }
        }
    }
}
#elseif canImport(Darwin)
extension DatabaseFileWatch {
    /// A dispatch source on each of the database's files and one on their folder, which makes a file's source again
    /// when the file appears or is replaced.
    ///
    /// Unchecked: `sources` is changed only on the watch's queue (the first sources are made in `start`, before any
    /// handler can run, since they are resumed at its end).
    private final class Sources: @unchecked Sendable {
        private let folder: String
        private let names: Set<String>
        private let queue: DispatchQueue
        private let onChange: @Sendable () -> Void
        private var sources: [String: any DispatchSourceFileSystemObject] = [:]
        private var isStopped = false

        init(folder: String, names: Set<String>, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) {
            self.folder = folder
            self.names = names
            self.queue = queue
            self.onChange = onChange
        }

        func start() {
            queue.sync {
                sources[""] = makeSource(folder, directory: true) { [self] in folderChanged() }
                for name in names { watchFile(name) }
            }
        }

        func stop() {
            queue.async { [self] in
                isStopped = true
                for source in sources.values { source.cancel() }
                sources = [:]
            }
        }

        /// A file of the folder appeared, went or was replaced: its source is made again.
        private func folderChanged() {
            guard !isStopped else { return }
            for name in names {
                sources[name]?.cancel()
                sources[name] = nil
                watchFile(name)
            }
            onChange()
        }

        private func watchFile(_ name: String) {
            sources[name] = makeSource(folder + "/" + name, directory: false) { [self] in
                guard !isStopped else { return }
                if let source = sources[name], !source.data.isDisjoint(with: [.delete, .rename]) {
                    source.cancel()
                    sources[name] = nil
                    watchFile(name)
                }
                onChange()
            }
        }

        private func makeSource(
            _ path: String,
            directory: Bool,
            onChange: @escaping @Sendable () -> Void
        ) -> (any DispatchSourceFileSystemObject)? {
            let descriptor = open(path, O_EVTONLY | O_CLOEXEC | (directory ? O_DIRECTORY : 0))
            guard descriptor >= 0 else { return nil }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor,
                eventMask: directory ? [.write, .rename, .delete] : [.write, .extend, .delete, .rename],
                queue: queue
            )
            source.setEventHandler { onChange() }
            source.setCancelHandler { _ = close(descriptor) }
            source.resume()
            return source
        }
    }
}
#endif
