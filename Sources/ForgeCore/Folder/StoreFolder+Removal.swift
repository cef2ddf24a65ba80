package import Dispatch
internal import Foundation

extension StoreFolder {
    /// Removes the store folder and everything in it, at once, without following links inside it.
    ///
    /// The folder is first renamed to a hidden sibling, so readers see all of it vanish at once and a crash
    /// mid-way leaves no half-emptied folder under the store's name (the next sweep removes the sibling). When the
    /// folder is a symbolic link, or its parent may not be changed, its contents are removed in place instead and
    /// the folder stays. Succeeds when nothing is there.
    package func removeAll() throws(FileSystemError) {
        let parentPath = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        if let parent = try? Descriptor(opening: parentPath, .folder) {
            guard let status = try parent.status(of: EntryName(name)) else { return }
            if status.kind == .folder {
                let trash = EntryName(TemporaryName.make(for: name))
                do {
                    try parent.rename(EntryName(name), to: trash)
                    try Self.removeTree(trash, in: parent)
                    return
                } catch  where error.operation == .rename && error.isMissing {
                    return
                } catch  where error.operation != .rename {
                    throw error
                } catch {
                    // The parent may not be changed: empty the folder in place below.
                }
            }
        }
        let folder: Descriptor
        do {
            folder = try openRoot(creating: false)
        } catch  where error.isMissing {
            return
        }
        // Emptied in place, the folder's files go one by one: a folder that locks its changes holds the exclusive
        // lock meanwhile, so that no write lands between the listing and the removals (a value with a lifetime
        // written then could outlive the index of lifetimes that names it).
        if options.locksChanges { _ = folder.lock(exclusive: true, waits: true) }
        try Self.removeContents(of: folder)
    }

    /// Removes the folder `name` in the open folder `parent`, and everything in it, without following links.
    ///
    /// A link or a file that took the folder's place since it was listed is removed itself.
    static func removeTree(_ name: EntryName, in parent: Descriptor) throws(FileSystemError) {
        let folder: Descriptor
        do {
            folder = try parent.openEntry(name, .folder)
        } catch  where error.isMissing {
            return
        } catch  where error.isSymbolicLink || error.reason == .parentIsFile {
            do {
                try parent.remove(name, kinds: anythingButAFolder)
            } catch  where error.isMissing {}
            return
        }
        var attempts = 0
        while true {
            try removeContents(of: folder)
            do {
                try parent.remove(name, kinds: [.folder])
                return
            } catch  where error.isMissing {
                return
            } catch  where error.isNotEmpty && attempts < 8 {
                // A writer holding the folder open added a file since it was listed: empty it again.
                attempts += 1
            }
        }
    }

    /// Removes everything in the open `folder`, which stays; names that are not UTF-8 too, so the folder can go.
    static func removeContents(of folder: Descriptor) throws(FileSystemError) {
        for entry in try folder.entries() {
            if entry.kind == .folder {
                try removeTree(entry.storedName, in: folder)
            } else {
                do {
                    try folder.remove(entry.storedName, kinds: anythingButAFolder)
                } catch  where error.isMissing {}
            }
        }
    }

    /// Removes the store folder when it is empty; false when it is not empty or not there.
    @discardableResult
    package func removeIfEmpty() -> Bool {
        let parent = try? Descriptor(opening: (path as NSString).deletingLastPathComponent, .folder)
        return (try? parent?.remove(EntryName((path as NSString).lastPathComponent), kinds: [.folder])) != nil
    }
}

// MARK: Leftovers

extension StoreFolder {
    /// The folders whose leftovers this process has already removed, or is removing.
    private static let sweptFolders = LockedState<Set<String>>([])

    /// The queue the sweeps run on, one after another, off the thread of the store that started them.
    package static let sweeps = DispatchQueue(label: "ForgeStorage.leftover-sweeps", qos: .utility)

    /// Starts removing, in the background, what crashed writers left in and beside the store folder; once per
    /// folder and process.
    ///
    /// That is the temporary files of dead processes in the folder and beneath it (with the folders they leave
    /// empty), and the hidden sibling a crashed ``removeAll()`` left. The sweep reads every folder of the store, so it
    /// stays off the path of the store's first call: leftovers are harmless meanwhile, as no store reads, lists or
    /// counts a temporary name, and a write whose new folder the sweep removes as empty starts again (another
    /// program that makes a folder in the store meanwhile may see it removed before its first file is in). Later calls
    /// for the same folder in the same process return at once, since a running process leaves no orphans of its own.
    package func removeLeftoversOnce() {
        guard Self.sweptFolders.withLock({ $0.insert(path).inserted }) else { return }
        let folder = self
        Self.sweeps.async { folder.removeLeftovers() }
    }

    /// Waits until every sweep started so far has finished: for a process about to exit, and for the tests.
    package static func waitForLeftoverSweeps() {
        sweeps.sync {}
    }

    /// ``waitForLeftoverSweeps()`` for a task, which it suspends instead of blocking its thread.
    package static func leftoverSweepsFinished() async {
        await withCheckedContinuation { finished in sweeps.async { finished.resume() } }
    }

    /// Removes what crashed writers left in and beside the store folder, now.
    func removeLeftovers() {
        if let root = try? openRoot(creating: false) { Self.removeOrphans(in: root) }
        let parent = StoreFolder(path: (path as NSString).deletingLastPathComponent)
        parent.removeOrphanedTemporaries(of: (path as NSString).lastPathComponent)
    }

    /// Removes the temporary files and folders that dead processes made for the entry `name` of this folder.
    ///
    /// Returns how many it removed; errors are ignored.
    @discardableResult
    package func removeOrphanedTemporaries(of name: String) -> Int {
        guard let folder = try? openRoot(creating: false), let entries = try? folder.entries() else { return 0 }
        let prefix = TemporaryName.prefix(for: name)
        return entries.filter { $0.name.hasPrefix(prefix) && Self.removeOrphan($0, in: folder) }.count
    }

    /// Removes the temporary files of dead processes in the open `folder` and beneath it.
    ///
    /// Also removes the folders that leaves empty, and returns how many temporary files it removed. Errors are
    /// ignored: what stays is tried again next time.
    @discardableResult
    static func removeOrphans(in folder: Descriptor) -> Int {
        guard let entries = try? folder.entries() else { return 0 }
        var removed = 0
        for entry in entries {
            if removeOrphan(entry, in: folder) {
                removed += 1
            } else if entry.kind == .folder && !TemporaryName.isTemporary(entry.name),
                let child = try? folder.openEntry(entry.storedName, .folder)
            {
                removed += removeOrphans(in: child)
                // Fails, as it should, unless the folder is now empty.
                try? folder.remove(entry.storedName, kinds: [.folder])
            }
        }
        return removed
    }

    /// Removes `entry` of the open `folder` when it is a dead process's temporary file or folder.
    private static func removeOrphan(_ entry: FolderEntry, in folder: Descriptor) -> Bool {
        guard TemporaryName.isOrphaned(entry.name) else { return false }
        if entry.kind == .folder { return (try? removeTree(entry.storedName, in: folder)) != nil }
        return (try? folder.remove(entry.storedName, kinds: anythingButAFolder)) != nil
    }
}
