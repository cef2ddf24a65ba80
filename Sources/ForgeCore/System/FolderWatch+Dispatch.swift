#if canImport(Darwin)
internal import Darwin
internal import Dispatch
internal import Foundation

extension FolderWatch {
    /// A dispatch source on the folder (and its sub-folders when recursive) and on its parent.
    ///
    /// A folder's source tells only that its names changed, not which: the observer is told that folder's path, nil
    /// for the watched folder itself, and reads what it holds again.
    final class NotificationSource: @unchecked Sendable {
        // `sources` is changed only on `FolderWatch.queue` (and by `start`, before any source runs).
        private let folder: String
        private let recursive: Bool
        private var sources: [String: any DispatchSourceFileSystemObject] = [:]
        private var parentSource: (any DispatchSourceFileSystemObject)?
        private var deliver: (@Sendable (String?) -> Void)?

        init?(folder: String, recursive: Bool) {
            self.folder = folder
            self.recursive = recursive
        }

        /// Starts watching, calling `deliver` on the watches' queue for each change.
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {
            self.deliver = deliver
            let parent = (folder as NSString).deletingLastPathComponent
            parentSource = makeSource(path: parent, followsLink: true) { [self] in
                // The folder may have appeared or gone: watch what is there now, and tell of everything.
                unwatch("")
                watch("")
                self.deliver?(nil)
            }
            watch("")
        }

        /// Stops every source, which closes its descriptor.
        func stop() {
            FolderWatch.queue.async { [self] in
                parentSource?.cancel()
                parentSource = nil
                unwatch("")
                deliver = nil
            }
        }

        /// Watches the folder at `relative`, when it exists and is not watched yet, and the folders beneath it when
        /// recursive.
        private func watch(_ relative: String) {
            if sources[relative] == nil {
                let path = relative.isEmpty ? folder : folder + "/" + relative
                sources[relative] = makeSource(path: path, followsLink: relative.isEmpty) { [self] in
                    changed(relative)
                }
            }
            guard recursive, sources[relative] != nil else { return }
            for child in FolderWatch.subfolders(of: relative, in: folder) { watch(child) }
        }

        /// Stops watching the folder at `relative` and every folder beneath it.
        private func unwatch(_ relative: String) {
            for (path, source) in sources where FolderWatch.isPath(path, within: relative) {
                source.cancel()
                sources[path] = nil
            }
        }

        /// Follows a change of the names in the folder at `relative`: its sub-folders that went are unwatched, new
        /// ones watched, and the observer told.
        private func changed(_ relative: String) {
            if recursive {
                let present = Set(FolderWatch.subfolders(of: relative, in: folder))
                for path in sources.keys where path != relative && FolderWatch.isPath(path, within: relative) {
                    if !present.contains(path) { unwatch(path) }
                }
                watch(relative)
            }
            deliver?(relative.isEmpty ? nil : relative)
        }

        /// A running source on the folder at `path` that calls `onChange` when its names change or it goes; nil when
        /// the folder cannot be opened.
        private func makeSource(
            path: String,
            followsLink: Bool,
            onChange: @escaping @Sendable () -> Void
        ) -> (any DispatchSourceFileSystemObject)? {
            let descriptor = open(path, O_EVTONLY | O_DIRECTORY | O_CLOEXEC | (followsLink ? 0 : O_NOFOLLOW))
            guard descriptor >= 0 else { return nil }
            FolderWatch.openDescriptors.withLock { $0[folder, default: 0] += 1 }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor,
                eventMask: [.write, .delete, .rename, .link],
                queue: FolderWatch.queue
            )
            source.setEventHandler { onChange() }
            source.setCancelHandler { [folder] in
                _ = close(descriptor)
                FolderWatch.openDescriptors.withLock { $0[folder, default: 0] -= 1 }
            }
            source.resume()
            return source
        }
    }
}
#endif
