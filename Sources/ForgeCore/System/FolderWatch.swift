package import Dispatch
internal import Foundation

#if canImport(Glibc)
@preconcurrency internal import Glibc
#elseif canImport(Musl)
@preconcurrency internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The operating system's notifications of changes to the names in one folder, from any process: how a store
/// sees what other instances and processes write, without polling.
///
/// One watch per folder and process, however many observers: ``observe(_:onChange:)`` adds an observer to the
/// folder's watch, starting it for the first, and the returned ``ChangeObservation`` ends it, stopping the watch (and
/// closing its descriptor) after the last. On Linux the watch is inotify on the folder and on its parent, so a
/// folder that does not exist yet, or that is removed and made again (a `removeAll()`), is picked up when it
/// appears. An observer is told the name that changed (created, replaced by a rename, written, removed), or nil
/// when anything in the folder may have changed (the folder appeared or went, the kernel's queue overflowed).
/// Where inotify is missing (Apple platforms here), observers are never called.
package final class FolderWatch: Sendable {
    /// A running watch's observers, by number.
    private struct Observers {
        var next = 0
        var handlers: [Int: @Sendable (String?) -> Void] = [:]
    }

    /// The watches running in this process, by folder path.
    private static let running = LockedState<[String: FolderWatch]>([:])

    /// The folder watched.
    package let path: String
    private let observers = LockedState(Observers())
    /// The system's watch: nil where the platform has none or it could not start.
    private let source: NotificationSource?

    private init(path: String) {
        self.path = path
        source = NotificationSource(folder: path)
    }

    /// Adds `onChange` as an observer of the folder at `path`, called on a background queue with the name that
    /// changed, or nil when anything may have.
    ///
    /// - Returns: The observation, which stops calling `onChange` when it ends (``ChangeObservation/end()``, or when it is
    ///   released).
    package static func observe(_ path: String, onChange: @escaping @Sendable (String?) -> Void) -> ChangeObservation {
        let (watch, id) = running.withLock { running -> (FolderWatch, Int) in
            let watch = running[path] ?? FolderWatch(path: path)
            if running[path] == nil {
                running[path] = watch
                watch.source?.start { name in watch.deliver(name) }
            }
            let id = watch.observers.withLock { observers in
                observers.next += 1
                observers.handlers[observers.next] = onChange
                return observers.next
            }
            return (watch, id)
        }
        return ChangeObservation { watch.remove(id) }
    }

    /// Whether this platform tells of changes to a folder (Linux, through inotify).
    package static var isSupported: Bool {
        #if canImport(Glibc) || canImport(Musl)
        true
        #else
        false
        #endif
    }

    /// Whether the folder at `path` is watched, for tests.
    package static func isWatching(_ path: String) -> Bool {
        running.withLock { $0[path] != nil }
    }

    /// The number of notification descriptors open for the folder at `path`, for tests: a stopped watch closes its
    /// own shortly after it stops.
    package static func openDescriptorCount(for path: String) -> Int {
        openDescriptors.withLock { $0[path] ?? 0 }
    }

    /// The notification descriptors open, by folder path.
    private static let openDescriptors = LockedState<[String: Int]>([:])

    /// The queue every watch reads its events on, one after another.
    private static let queue = DispatchQueue(label: "ForgeStorage.FolderWatch")

    /// Returns once the watches stopped so far have closed their descriptors: for tests.
    package static func stoppedWatchesClosed() async {
        // Two turns of the queue: the first runs after every stop, the second after the closes they started.
        await withCheckedContinuation { done in queue.async { queue.async { done.resume() } } }
    }

    /// Calls every observer with `name`.
    private func deliver(_ name: String?) {
        for handler in observers.withLock({ Array($0.handlers.values) }) { handler(name) }
    }

    /// Removes the observer numbered `id`, and stops the watch after the last.
    private func remove(_ id: Int) {
        Self.running.withLock { running in
            let isLast = observers.withLock { observers in
                observers.handlers[id] = nil
                return observers.handlers.isEmpty
            }
            guard isLast, running[path] === self else { return }
            running[path] = nil
            source?.stop()
        }
    }
}

#if canImport(Glibc) || canImport(Musl)
extension FolderWatch {
    /// An inotify instance that watches a folder and its parent, read on a dispatch source.
    private final class NotificationSource: @unchecked Sendable {
        // `folderWatch` and `source` are set by `start`, before the source runs, and changed afterwards only on
        // `queue` (the watches' one queue), where every event is read too.
        private let folder: String
        private let parent: String
        private let name: String
        private let descriptor: Int32
        private let queue: DispatchQueue
        private var source: (any DispatchSourceRead)?
        private var folderWatch: Int32 = -1
        private var parentWatch: Int32 = -1

        /// The events that change what a folder holds: a name created, written, renamed in or out, or removed.
        private static let changes = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        /// The events that mean the watched folder itself went.
        private static let folderGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)

        init?(folder: String) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            FolderWatch.openDescriptors.withLock { $0[folder, default: 0] += 1 }
            self.descriptor = descriptor
            self.folder = folder
            self.parent = (folder as NSString).deletingLastPathComponent
            self.name = (folder as NSString).lastPathComponent
            queue = FolderWatch.queue
        }

        /// Starts reading events, calling `deliver` on the watch's queue for each.
        ///
        /// The folder is watched when this returns, so a change made after it is never missed. (The state is set
        /// here before the source runs its first handler on the queue, and only there afterwards.)
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {
            parentWatch = inotify_add_watch(descriptor, parent, Self.changes | UInt32(IN_ONLYDIR))
            watchFolder()
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [self] in readEvents(deliver) }
            source.setCancelHandler { [descriptor, folder] in
                _ = close(descriptor)
                FolderWatch.openDescriptors.withLock { $0[folder, default: 0] -= 1 }
            }
            self.source = source
            source.resume()
        }

        /// Stops reading events and closes the descriptor.
        func stop() {
            queue.async { [self] in source?.cancel() }
        }

        /// Watches the folder, when it exists.
        private func watchFolder() {
            folderWatch = inotify_add_watch(descriptor, folder, Self.changes | Self.folderGone | UInt32(IN_ONLYDIR))
        }

        /// Reads the events waiting, and tells `deliver` of each that concerns the folder.
        private func readEvents(_ deliver: @Sendable (String?) -> Void) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                var offset = 0
                buffer.withUnsafeBytes { bytes in
                    while offset + MemoryLayout<inotify_event>.size <= count {
                        let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let nameStart = offset + MemoryLayout<inotify_event>.size
                        let nameBytes = bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 }
                        offset = nameStart + length
                        handle(watch: watch, mask: mask, name: String(decoding: nameBytes, as: UTF8.self), deliver)
                    }
                }
            }
        }

        /// Tells `deliver` what one event means for the folder.
        private func handle(watch: Int32, mask: UInt32, name: String, _ deliver: @Sendable (String?) -> Void) {
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                deliver(nil)
            } else if watch == parentWatch {
                // The folder made (or renamed into place) or removed: watch it anew, and tell of everything.
                guard name == self.name else { return }
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchFolder() }
                deliver(nil)
            } else if watch == folderWatch {
                if mask & Self.folderGone != 0 {
                    // Moved away (a `removeAll()` renames it first) or removed: stop following it.
                    if mask & UInt32(IN_IGNORED) == 0 { _ = inotify_rm_watch(descriptor, folderWatch) }
                    folderWatch = -1
                    deliver(nil)
                } else if !name.isEmpty {
                    deliver(name)
                }
            }
        }
    }
}
#else
extension FolderWatch {
    /// No notifications on this platform yet: observers are never called.
    private final class NotificationSource: Sendable {
        init?(folder: String) { return nil }
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {}
        func stop() {}
    }
}
#endif
