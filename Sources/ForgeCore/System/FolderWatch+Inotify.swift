#if canImport(Glibc) || canImport(Musl)
internal import Dispatch
internal import Foundation

#if canImport(Glibc)
@preconcurrency internal import Glibc
#else
@preconcurrency internal import Musl
#endif

extension FolderWatch {
    /// An inotify instance that watches a folder (with its sub-folders when recursive) and its parent, read on a
    /// dispatch source.
    final class NotificationSource: @unchecked Sendable {
        // The watch descriptors and `source` are set by `start`, before the source runs, and changed afterwards only
        // on `FolderWatch.queue`, where every event is read too.
        private let folder: String
        private let parent: String
        private let name: String
        private let recursive: Bool
        private let descriptor: Int32
        private var source: (any DispatchSourceRead)?
        private var parentWatch: Int32 = -1
        /// The folders watched, by watch descriptor: their paths relative to the folder, "" for the folder itself.
        private var folders: [Int32: String] = [:]

        /// The events that change what a folder holds: a name created, written, renamed in or out, or removed.
        private static let changes = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        /// The events that mean a watched folder itself went.
        private static let folderGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)

        init?(folder: String, recursive: Bool) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            FolderWatch.openDescriptors.withLock { $0[folder, default: 0] += 1 }
            self.descriptor = descriptor
            self.folder = folder
            self.recursive = recursive
            self.parent = (folder as NSString).deletingLastPathComponent
            self.name = (folder as NSString).lastPathComponent
        }

        /// Starts reading events, calling `deliver` on the watches' queue for each.
        ///
        /// The folder is watched when this returns, so a change made after it is never missed. (The state is set
        /// here before the source runs its first handler on the queue, and only there afterwards.)
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {
            parentWatch = inotify_add_watch(descriptor, parent, Self.changes | UInt32(IN_ONLYDIR))
            watch("")
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: FolderWatch.queue)
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
            FolderWatch.queue.async { [self] in source?.cancel() }
        }

        /// Watches the folder at `relative`, when it exists, and the folders beneath it when recursive.
        ///
        /// The watched folder may be reached through a link, as a store's folder may; a link beneath it is not
        /// followed, so nothing outside the folder is watched.
        private func watch(_ relative: String) {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            let linkRule = relative.isEmpty ? 0 : UInt32(IN_DONT_FOLLOW)
            let watch = inotify_add_watch(
                descriptor,
                path,
                Self.changes | Self.folderGone | UInt32(IN_ONLYDIR) | linkRule
            )
            guard watch >= 0 else { return }
            folders[watch] = relative
            guard recursive else { return }
            for child in FolderWatch.subfolders(of: relative, in: folder) { self.watch(child) }
        }

        /// Stops watching the folder at `relative` and every folder beneath it.
        private func unwatch(_ relative: String) {
            for (watch, path) in folders where FolderWatch.isPath(path, within: relative) {
                _ = inotify_rm_watch(descriptor, watch)
                folders[watch] = nil
            }
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
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    unwatch("")
                    self.watch("")
                }
                deliver(nil)
            } else if let relative = folders[watch] {
                if mask & Self.folderGone != 0 {
                    // Moved away (a `removeAll()` renames the folder first) or removed: stop following it. Its
                    // parent's event tells of a sub-folder; the folder itself changes everything.
                    if mask & UInt32(IN_IGNORED) == 0 { _ = inotify_rm_watch(descriptor, watch) }
                    folders[watch] = nil
                    if relative.isEmpty {
                        unwatch("")
                        deliver(nil)
                    }
                } else if !name.isEmpty {
                    let changed = FolderWatch.path(of: name, in: relative)
                    if recursive, mask & UInt32(IN_ISDIR) != 0 {
                        // A sub-folder renamed away is no longer this folder's; one made or renamed in is watched
                        // before it is told of, so the observer's look into it misses nothing made after.
                        if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { unwatch(changed) }
                        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { self.watch(changed) }
                    }
                    deliver(changed)
                }
            }
        }
    }
}
#endif
