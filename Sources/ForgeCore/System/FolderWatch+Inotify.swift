#if canImport(Glibc) || canImport(Musl)
internal import Dispatch
internal import Foundation

#if canImport(Glibc)
@preconcurrency internal import Glibc
#else
@preconcurrency internal import Musl
#endif

extension FolderWatch {
    /// The inotify watches of a folder (with its sub-folders when recursive) and of the nearest folder above it that
    /// exists, in the process's one inotify instance.
    final class NotificationSource: Sendable {
        /// The watch of the nearest existing folder on the way to the watched one.
        private struct Ancestor {
            /// The watch.
            let watch: Inotify.Watch
            /// The name in the ancestor on the way to the watched folder, whose change moves the ancestor.
            let next: String
        }

        /// The watches this source holds.
        private struct Watches {
            /// The watch of the nearest existing folder above the watched one, its parent while that exists.
            ///
            /// It tells when the folder, or a missing folder above it, appears or goes.
            var ancestor: Ancestor?
            /// The folders watched, by watch descriptor, with their paths relative to the folder ("" for itself).
            var folders: [Int32: (relative: String, watch: Inotify.Watch)] = [:]
            /// Whether the source was stopped: nothing is watched any more.
            var isStopped = false
        }

        private let folder: String
        private let recursive: Bool
        private let followsLink: Bool
        private let watches = LockedState(Watches())
        private let deliver = LockedState<(@Sendable (String?) -> Void)?>(nil)

        /// The events that change what a folder holds: a name created, written, renamed in or out, or removed.
        private static let changes = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
        /// The events that mean a watched folder itself went.
        private static let folderGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)

        init?(folder: String, recursive: Bool, followsLink: Bool) {
            self.folder = folder
            self.recursive = recursive
            self.followsLink = followsLink
        }

        /// Starts watching, calling `deliver` on the watches' queue for each change.
        ///
        /// The folder is watched when this returns, so a change made after it is never missed.
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {
            self.deliver.withLock { $0 = deliver }
            FolderWatch.openDescriptors.withLock { $0[folder, default: 0] += 1 }
            watches.withLock { watches in
                watchAncestor(in: &watches)
                watch("", in: &watches)
            }
        }

        /// Stops every watch of this source.
        func stop() {
            deliver.withLock { $0 = nil }
            watches.withLock { watches in
                watches.isStopped = true
                if let ancestor = watches.ancestor { Inotify.shared.remove(ancestor.watch) }
                watches.ancestor = nil
                unwatch("", in: &watches)
            }
            FolderWatch.openDescriptors.withLock { $0[folder, default: 0] -= 1 }
        }

        /// Tells the observer of `changed`, unless the source stopped.
        private func tell(_ changed: String?) {
            deliver.withLock { $0 }?(changed)
        }

        /// Watches the folder at `relative`, when it exists, and the folders beneath it when recursive.
        ///
        /// The watched folder may be reached through a link, as a store's folder may; a link beneath it is not
        /// followed, so nothing outside the folder is watched.
        private func watch(_ relative: String, in watches: inout Watches) {
            guard !watches.isStopped else { return }
            let path = relative.isEmpty ? folder : folder + "/" + relative
            let linkRule = relative.isEmpty && followsLink ? 0 : UInt32(IN_DONT_FOLLOW)
            let mask = Self.changes | Self.folderGone | UInt32(IN_ONLYDIR) | linkRule
            guard
                let watch = Inotify.shared.add(
                    path,
                    mask: mask,
                    handler: { [self] mask, name in
                        folderChanged(mask: mask, name: name, relative: relative)
                    }
                )
            else { return }
            watches.folders[watch.descriptor] = (relative, watch)
            guard recursive else { return }
            for child in FolderWatch.subfolders(of: relative, in: folder) { self.watch(child, in: &watches) }
        }

        /// Stops watching the folder at `relative` and every folder beneath it.
        private func unwatch(_ relative: String, in watches: inout Watches) {
            for (descriptor, entry) in watches.folders where FolderWatch.isPath(entry.relative, within: relative) {
                Inotify.shared.remove(entry.watch)
                watches.folders[descriptor] = nil
            }
        }

        /// Watches the nearest folder above the watched one that exists, from its parent up, in place of the one
        /// watched so far.
        ///
        /// The new watch starts before the old one ends, so a folder watched by both loses no event. When the name on
        /// the way down appeared before its watch started, the watch moves down to it at once.
        private func watchAncestor(in watches: inout Watches) {
            let previous = watches.ancestor
            defer { if let previous { Inotify.shared.remove(previous.watch) } }
            watches.ancestor = nil
            guard !watches.isStopped else { return }
            var below = folder
            while below != "/" && !below.isEmpty {
                let path = (below as NSString).deletingLastPathComponent
                let next = (below as NSString).lastPathComponent
                let mask = Self.changes | Self.folderGone | UInt32(IN_ONLYDIR)
                if let watch = Inotify.shared.add(
                    path,
                    mask: mask,
                    handler: { [self] mask, name in
                        ancestorChanged(mask: mask, name: name, next: next)
                    }
                ) {
                    watches.ancestor = Ancestor(watch: watch, next: next)
                    guard below != folder, FileManager.default.fileExists(atPath: below) else { return }
                    // Made before the watch started: look again from the parent down.
                    if let previous = watches.ancestor { Inotify.shared.remove(previous.watch) }
                    watches.ancestor = nil
                    below = folder
                    continue
                }
                below = path
            }
        }

        /// Follows an event of the ancestor: the name on the way down made, removed or renamed, or the ancestor
        /// itself gone, moves the ancestor and watches the folder anew; each tells of everything.
        private func ancestorChanged(mask: UInt32, name: String, next: String) {
            let overflowed = mask & UInt32(IN_Q_OVERFLOW) != 0
            let ancestorGone = mask & Self.folderGone != 0
            guard overflowed || ancestorGone || (name == next && mask & Self.changes != 0) else { return }
            watches.withLock { watches in
                watchAncestor(in: &watches)
                unwatch("", in: &watches)
                watch("", in: &watches)
            }
            tell(nil)
        }

        /// Follows an event of the watched folder at `relative`.
        private func folderChanged(mask: UInt32, name: String, relative: String) {
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // The lost events may have made folders: watch every folder there is now (adding a watch twice is
                // harmless), then tell of everything.
                watches.withLock { watch("", in: &$0) }
                return tell(nil)
            }
            if mask & Self.folderGone != 0 {
                // Moved away (a `removeAll()` renames the folder first) or removed: stop following it. Its parent's
                // event tells of a sub-folder; the folder itself changes everything.
                guard relative.isEmpty else { return }
                watches.withLock { unwatch("", in: &$0) }
                return tell(nil)
            }
            guard !name.isEmpty, mask & Self.changes != 0 else { return }
            let changed = FolderWatch.path(of: name, in: relative)
            if recursive, mask & UInt32(IN_ISDIR) != 0 {
                // A sub-folder renamed away is no longer this folder's; one made or renamed in is watched before it
                // is told of, so the observer's look into it misses nothing made after.
                watches.withLock { watches in
                    if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { unwatch(changed, in: &watches) }
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watch(changed, in: &watches) }
                }
            }
            tell(changed)
        }
    }
}
#endif
