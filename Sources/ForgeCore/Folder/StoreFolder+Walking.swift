internal import Foundation

extension StoreFolder {
    /// Opens the store folder by its path, creating it and its missing parents when `creating` is set (and the
    /// options allow it).
    func openRoot(creating: Bool) throws(FileSystemError) -> Descriptor {
        do {
            return try Descriptor(opening: path, .folder)
        } catch where error.isMissing && creating && options.createsFolder {
            if try Descriptor.makeFolders(atPath: path, permissions: options.folderPermissions) {
                try applyProtection(toPath: path)
            }
            return try Descriptor(opening: path, .folder)
        }
    }

    /// Opens the sub-folder `folders` one name at a time, never following a link, creating missing folders when
    /// `creating` is set.
    func openFolder(_ folders: ArraySlice<String>, creating: Bool) throws(FileSystemError) -> Descriptor {
        var folder = try openRoot(creating: creating)
        for name in folders {
            let storedName = storedName(of: name, in: folder)
            do {
                folder = try folder.openEntry(storedName, .folder)
            } catch where error.isMissing && creating && options.createsFolder {
                do {
                    try folder.makeFolder(storedName, permissions: options.folderPermissions)
                    try applyProtection(toPath: folder.child(storedName))
                } catch where error.isAlreadyExists {
                    // Another writer made it first.
                }
                folder = try folder.openEntry(storedName, .folder)
            }
        }
        return folder
    }

    /// Removes the folders at the end of `folders` that are empty, innermost first, and stops at the first that is
    /// not; errors are ignored.
    func removeEmptyFolders(_ folders: ArraySlice<String>) {
        var remaining = folders
        while let name = remaining.popLast() {
            guard let parent = try? openFolder(remaining, creating: false),
                (try? parent.remove(EntryName(storedName(of: name, in: parent)), folder: true)) != nil
            else { return }
        }
    }

    /// The name that `name`, in NFC, is stored under in `folder`: `name` itself, or its NFD spelling.
    ///
    /// A name in NFD was written by another program or copied from an HFS+ volume. The NFC spelling is tried first,
    /// and is the answer whenever something has it or neither spelling exists; an ASCII name has one spelling.
    func storedName(of name: String, in folder: Descriptor) -> String {
        guard !FileNameEncoding.isASCII(name), case .success(nil) = Result(catching: { try folder.status(of: name) })
        else { return name }
        let decomposed = name.decomposedStringWithCanonicalMapping
        guard !decomposed.utf8.elementsEqual(name.utf8), (try? folder.status(of: decomposed)) != nil else { return name }
        return decomposed
    }
}
