internal import Foundation

extension StoreFolder {
    /// Opens the store folder by its path, creating it and its missing parents when `creating` is set (and the
    /// options allow it).
    func openRoot(creating: Bool) throws(FileSystemError) -> Descriptor {
        do {
            return try Descriptor(opening: path, .folder)
        } catch  where error.isMissing && creating && options.createsFolder {
            if try Self.makeFolders(atPath: path, permissions: options.folderPermissions) {
                try applyProtection(toPath: path)
            }
            return try Descriptor(opening: path, .folder)
        }
    }

    /// Opens the sub-folder `folders`, never following a link: in one call where the system can, else one name at a
    /// time, creating missing folders when `creating` is set.
    func openFolder(_ folders: ArraySlice<String>, creating: Bool) throws(FileSystemError) -> Descriptor {
        if let folder = try openInOneCall(folders, .folder, creating: creating) { return folder }
        return try walk(to: folders, from: openRoot(creating: creating), creating: creating)
    }

    /// Opens the sub-folder `folders` of the open store folder `root` one name at a time, never following a link,
    /// creating missing folders when `creating` is set.
    func walk(to folders: ArraySlice<String>, from root: Descriptor, creating: Bool) throws(FileSystemError)
        -> Descriptor
    {
        var folder = root
        for name in folders {
            let storedName = storedName(of: name, in: folder)
            do {
                folder = try folder.openEntry(storedName, .folder)
            } catch  where error.isMissing && creating && options.createsFolder {
                do {
                    try folder.makeFolder(storedName, permissions: options.folderPermissions)
                    try applyProtection(toPath: folder.child(storedName))
                } catch  where error.isAlreadyExists {
                    // Another writer made it first.
                }
                folder = try folder.openEntry(storedName, .folder)
            }
        }
        return folder
    }

    /// Opens the path of `names` beneath the store folder in one call; nil when it is for the walk.
    ///
    /// When the store folder's own path has no link, the whole path opens in one call that refuses a link anywhere
    /// on it; when it has one (a linked home folder), the store folder opens by its path and the names beneath it in
    /// one call from its descriptor. The walk decides when the system has no such call and whenever the call
    /// fails, as it creates missing folders, finds a name stored in its NFD spelling and names the obstacle; only
    /// nothing at an ASCII path fails here, as the walk would fail too.
    func openInOneCall(
        _ names: some Collection<String>,
        _ mode: Descriptor.Mode,
        creating: Bool
    ) throws(FileSystemError) -> Descriptor? {
        guard options.opensPathsInOneCall, !names.isEmpty else { return nil }
        do {
            return try Descriptor.openPath(path, then: names, mode, followsNoLink: true)
        } catch  where error.isMissing && !creating && names.allSatisfy(FileNameEncoding.isASCII) {
            throw error
        } catch {
            // A link on the way, perhaps on the store folder's own path: try from the folder's descriptor.
        }
        do {
            return try openRoot(creating: false).openBeneath(names.map { EntryName($0) }, mode)
        } catch  where error.isMissing && !creating && names.allSatisfy(FileNameEncoding.isASCII) {
            throw error
        } catch {
            return nil
        }
    }

    /// Removes the folders at the end of `folders` that are empty, innermost first, and stops at the first that is
    /// not; errors are ignored.
    func removeEmptyFolders(_ folders: ArraySlice<String>) {
        var remaining = folders
        while let name = remaining.popLast() {
            guard let parent = try? openFolder(remaining, creating: false),
                (try? parent.remove(storedName(of: name, in: parent), kinds: [.folder])) != nil
            else { return }
        }
    }

    /// The name that `name`, in NFC, is stored under in `folder`: `name` itself, or its NFD spelling.
    ///
    /// A name in NFD was written by another program or copied from an HFS+ volume. The NFC spelling is tried first,
    /// and is the answer whenever something has it or neither spelling exists; an ASCII name has one spelling.
    func storedName(of name: String, in folder: Descriptor) -> EntryName {
        let spelled = EntryName(name)
        guard !FileNameEncoding.isASCII(name), case .success(nil) = Result(catching: { try folder.status(of: spelled) })
        else { return spelled }
        let decomposed = EntryName(name.decomposedStringWithCanonicalMapping)
        guard decomposed != spelled, (try? folder.status(of: decomposed)) != nil else { return spelled }
        return decomposed
    }
}
