internal import Dispatch
internal import Foundation

/// The operating system's notifications of changes in one folder, from any process: how a store sees what other
/// instances and processes write, without polling.
///
/// One watch per folder and process, however many observers: ``observe(_:recursive:onChange:)`` adds an observer to
/// the folder's watch, starting it for the first, and the returned ``ChangeObservation`` ends it, stopping the watch
/// (and closing its descriptors) after the last. The nearest folder above it that exists is watched too (its parent,
/// while that exists), so a folder that does not exist yet, however many folders above it are missing, or that is
/// removed and made again (a `removeAll()`), is picked up when it appears. An observer is told the
/// path, relative to the folder, of what changed (a name created, replaced by a rename, written or removed; with
/// `recursive`, in any sub-folder too), or nil when anything in the folder may have changed (the folder appeared or
/// went, the kernel's queue overflowed).
///
/// On Linux the watch is inotify, which names what changed. On Apple platforms it is a dispatch source on each folder,
/// which tells only that a folder's names changed: the observer is told that folder's path (nil for the watched
/// folder itself), so it re-reads what the folder holds. A file rewritten in place, rather than replaced by a rename
/// as the stores replace theirs, is seen on Linux only.
package final class FolderWatch: Sendable {
    /// What tells one watch from another: the folder, and whether its sub-folders are watched too.
    private struct Key: Hashable {
        let path: String
        let recursive: Bool
        let followsLink: Bool
    }

    /// A running watch's observers, by number.
    private struct Observers {
        var next = 0
        var handlers: [Int: @Sendable (String?) -> Void] = [:]
    }

    /// The watches running in this process.
    private static let running = LockedState<[Key: FolderWatch]>([:])

    /// The folder and depth watched.
    private let key: Key
    private let observers = LockedState(Observers())
    /// The system's watch: nil where it could not start.
    private let source: NotificationSource?

    private init(key: Key) {
        self.key = key
        source = NotificationSource(folder: key.path, recursive: key.recursive, followsLink: key.followsLink)
    }

    /// Adds `onChange` as an observer of the folder at `path`, called on a background queue with the path that
    /// changed, relative to the folder, or nil when anything may have.
    ///
    /// - Parameters:
    ///   - path: The folder to watch; it need not exist yet.
    ///   - recursive: Whether changes in the folder's sub-folders, at any depth, are told too.
    ///   - followsLink: Whether the folder may be a symbolic link, which is then followed; a link beneath it never
    ///     is.
    ///   - onChange: The observer, called on the watches' one queue, one change after another.
    /// - Returns: The observation, which stops calling `onChange` when it ends (``ChangeObservation/end()``, or when
    ///   it is released).
    package static func observe(
        _ path: String,
        recursive: Bool = false,
        followsLink: Bool = true,
        onChange: @escaping @Sendable (String?) -> Void
    ) -> ChangeObservation {
        let key = Key(path: path, recursive: recursive, followsLink: followsLink)
        let (watch, id) = running.withLock { running -> (FolderWatch, Int) in
            let watch = running[key] ?? FolderWatch(key: key)
            if running[key] == nil {
                running[key] = watch
                watch.source?.start { changed in watch.deliver(changed) }
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

    /// Whether this platform tells of changes to a folder: Linux (inotify) and Apple platforms (dispatch sources).
    package static var isSupported: Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        true
        #else
        false
        #endif
    }

    /// Whether the folder at `path` is watched, at any depth, for tests.
    package static func isWatching(_ path: String) -> Bool {
        running.withLock { running in running.keys.contains { $0.path == path } }
    }

    /// The number of notification descriptors open for the folder at `path`, for tests: a stopped watch closes its
    /// own shortly after it stops.
    package static func openDescriptorCount(for path: String) -> Int {
        openDescriptors.withLock { $0[path] ?? 0 }
    }

    /// The notification descriptors open, by watched folder path.
    static let openDescriptors = LockedState<[String: Int]>([:])

    /// The queue every watch reads its events on and calls its observers on, one after another.
    static let queue = DispatchQueue(label: "ForgeStorage.FolderWatch")

    /// Returns once the watches stopped so far have closed their descriptors: for tests.
    package static func stoppedWatchesClosed() async {
        // Two turns of the queue: the first runs after every stop, the second after the closes they started.
        await withCheckedContinuation { done in queue.async { queue.async { done.resume() } } }
    }

    /// Calls every observer with `changed`.
    private func deliver(_ changed: String?) {
        for handler in observers.withLock({ Array($0.handlers.values) }) { handler(changed) }
    }

    /// Removes the observer numbered `id`, and stops the watch after the last.
    private func remove(_ id: Int) {
        Self.running.withLock { running in
            let isLast = observers.withLock { observers in
                observers.handlers[id] = nil
                return observers.handlers.isEmpty
            }
            guard isLast, running[key] === self else { return }
            running[key] = nil
            source?.stop()
        }
    }
}

extension FolderWatch {
    /// The path of `name` in the folder at the relative path `folder` ("" for the watched folder).
    package static func path(of name: String, in folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// Whether the relative path `path` is `folder` or lies beneath it; every path lies within "".
    package static func isPath(_ path: String, within folder: String) -> Bool {
        folder.isEmpty || path == folder || path.hasPrefix(folder + "/")
    }

    /// The folders above `folder`, nearest first, up to the root: where a watch looks for the nearest one that exists.
    ///
    /// For `/a/b/c` they are `/a/b`, `/a` and `/`.
    static func ancestors(of folder: String) -> [String] {
        var ancestors: [String] = []
        var below = folder
        while below != "/" && !below.isEmpty {
            below = (below as NSString).deletingLastPathComponent
            ancestors.append(below)
        }
        return ancestors
    }

    /// Whether a change of the names in the nearest existing folder above the watched one calls for watching anew.
    ///
    /// It does unless that folder is the parent and the watched folder is still the one watched (the same device and
    /// inode as when its watch began): then the change was a neighbour's. A folder that appeared, went or was replaced
    /// calls for it.
    ///
    /// - Parameters:
    ///   - ancestorIsParent: Whether the folder whose names changed is the watched folder's parent.
    ///   - watched: The watched folder's identity when its watch began; nil when it did not exist.
    ///   - current: Its identity now; nil when it does not exist.
    /// - Returns: True when the folder is to be watched anew.
    static func ancestorChangeCallsForRewatch(
        ancestorIsParent: Bool,
        watched: FileVersion?,
        current: FileVersion?
    ) -> Bool {
        !ancestorIsParent || current?.device != watched?.device || current?.inode != watched?.inode
    }

    /// The folders of `watched` beneath `relative` (not `relative` itself) that are not among `present`, the folders
    /// beneath it now: those a recursive watch stops watching after the names in `relative` changed.
    static func vanishedFolders(
        _ watched: some Sequence<String>,
        beneath relative: String,
        present: Set<String>
    ) -> [String] {
        watched.filter { $0 != relative && isPath($0, within: relative) && !present.contains($0) }
    }

    /// The relative paths of the folders beneath `relative` in the watched folder `root`, at any depth, read from
    /// their listings without following links; nothing when it cannot be read.
    static func subfolders(of relative: String, in root: String) -> [String] {
        let absolute = relative.isEmpty ? root : root + "/" + relative
        guard let folder = try? Descriptor(opening: absolute, .folder, followsLink: relative.isEmpty),
            let entries = try? folder.entries()
        else { return [] }
        return entries.filter { $0.kind == .folder && $0.storedName.isUTF8 }
            .flatMap { entry in
                let child = path(of: entry.name, in: relative)
                return [child] + subfolders(of: child, in: root)
            }
    }
}

#if !(canImport(Glibc) || canImport(Musl) || canImport(Darwin))
extension FolderWatch {
    /// No notifications on this platform: observers are never called.
    final class NotificationSource: Sendable {
        init?(folder: String, recursive: Bool, followsLink: Bool) { return nil }
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {}
        func stop() {}
    }
}
#endif
