#if canImport(Darwin)
internal import Darwin
internal import Dispatch
internal import Foundation

extension FolderWatch {
    /// A dispatch source on the folder (and its sub-folders when recursive) and on the nearest folder above it that
    /// exists.
    ///
    /// A folder's source tells only that its names changed, not which: the observer is told that folder's path, nil
    /// for the watched folder itself, and reads what it holds again.
    final class NotificationSource: @unchecked Sendable {
        // `sources`, `ancestor` and `deliver` are changed by `start` before any source runs (they are made suspended,
        // and resumed at its end from a list of its own), and afterwards only on `FolderWatch.queue`.
        private let folder: String
        private let recursive: Bool
        private let followsLink: Bool
        private var sources: [String: any DispatchSourceFileSystemObject] = [:]
        private var ancestor: (any DispatchSourceFileSystemObject)?
        private var deliver: (@Sendable (String?) -> Void)?
        /// The sources made but not resumed yet: while `start` runs, every source made.
        private var suspended: [any DispatchSourceFileSystemObject]?
        /// The watched folder's device and inode when its source was made, and whether the ancestor is its parent.
        private var watchedIdentity: FileVersion?
        private var ancestorIsParent = false

        init?(folder: String, recursive: Bool, followsLink: Bool) {
            self.folder = folder
            self.recursive = recursive
            self.followsLink = followsLink
        }

        /// Starts watching, calling `deliver` on the watches' queue for each change.
        func start(_ deliver: @escaping @Sendable (String?) -> Void) {
            self.deliver = deliver
            suspended = []
            watchAncestor()
            watch("")
            let made = suspended ?? []
            suspended = nil
            for source in made { source.resume() }
        }

        /// Stops every source, which closes its descriptor.
        func stop() {
            FolderWatch.queue.async { [self] in
                ancestor?.cancel()
                ancestor = nil
                unwatch("")
                deliver = nil
            }
        }

        /// Watches the nearest folder above the watched one that exists, from its parent up: its change may be the
        /// watched folder, or a missing folder above it, appearing or going.
        private func watchAncestor() {
            ancestor?.cancel()
            ancestor = nil
            for (index, path) in FolderWatch.ancestors(of: folder).enumerated() {
                if let source = makeSource(path: path, followsLink: true, onChange: { [self] in ancestorChanged() }) {
                    ancestor = source
                    ancestorIsParent = index == 0
                    return
                }
            }
        }

        /// Follows a change of the ancestor's names: unless it is the parent and the watched folder is still the one
        /// watched (the change was a neighbour's), watches anew.
        private func ancestorChanged() {
            let identity = try? Descriptor.version(ofFileAt: folder)
            guard
                FolderWatch.ancestorChangeCallsForRewatch(
                    ancestorIsParent: ancestorIsParent,
                    watched: watchedIdentity,
                    current: identity
                )
            else { return }
            resync()
        }

        /// Watches the ancestor and the folder anew, and tells of everything.
        private func resync() {
            watchAncestor()
            unwatch("")
            watch("")
            deliver?(nil)
        }

        /// Watches the folder at `relative`, when it exists and is not watched yet, and the folders beneath it when
        /// recursive.
        private func watch(_ relative: String) {
            if sources[relative] == nil {
                let path = relative.isEmpty ? folder : folder + "/" + relative
                if relative.isEmpty { watchedIdentity = try? Descriptor.version(ofFileAt: folder) }
                sources[relative] = makeSource(path: path, followsLink: relative.isEmpty && followsLink) { [self] in
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
                for path in FolderWatch.vanishedFolders(sources.keys, beneath: relative, present: present) {
                    unwatch(path)
                }
                watch(relative)
            }
            deliver?(relative.isEmpty ? nil : relative)
        }

        /// A source on the folder at `path` that calls `onChange` when its names change or it goes, resumed unless
        /// `start` is running; nil when the folder cannot be opened.
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
            if suspended != nil {
                suspended?.append(source)
            } else {
                source.resume()
            }
            return source
        }
    }
}
#endif
