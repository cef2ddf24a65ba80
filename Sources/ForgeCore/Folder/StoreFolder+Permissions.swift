internal import Foundation

extension StoreFolder {
    /// Creates the store folder, and its missing parents, with the options' folder permissions; then, when
    /// `exactPermissions` is set, sets the folder's permission bits to exactly those.
    ///
    /// The umask can only remove bits from a new folder and a folder made earlier may have any mode, so the bits
    /// are checked and corrected afterwards: the folder ends with exactly the permissions, or the call throws (for
    /// example `EPERM` when another user owns it).
    ///
    /// - Returns: Whether this call created the store folder.
    @discardableResult
    package func create(exactPermissions: Bool) throws(FileSystemError) -> Bool {
        let created = try Self.makeFolders(atPath: path, permissions: options.folderPermissions)
        if created { try applyProtection(toPath: path) }
        guard exactPermissions else { return created }
        let folder = try openRoot(creating: false)
        if try folder.status(regularFile: false).permissions != options.folderPermissions {
            try folder.setPermissions(options.folderPermissions)
        }
        return created
    }
}

extension StoreFolder {
    /// Creates the folder at `path` and its missing parents with `permissions`; succeeds when it exists (a link
    /// to a folder counts, as the store folder is opened by its path).
    ///
    /// - Returns: Whether the folder at `path` itself was created.
    @discardableResult
    static func makeFolders(atPath path: String, permissions: UInt16) throws(FileSystemError) -> Bool {
        let parentPath = (path as NSString).deletingLastPathComponent
        let name = EntryName((path as NSString).lastPathComponent)
        guard !parentPath.isEmpty, parentPath != path else { return false }
        let parent: Descriptor
        do {
            parent = try Descriptor(opening: parentPath, .folder)
        } catch  where error.isMissing {
            try makeFolders(atPath: parentPath, permissions: permissions)
            parent = try Descriptor(opening: parentPath, .folder)
        }
        do {
            try parent.makeFolder(name, permissions: permissions)
            return true
        } catch  where error.isAlreadyExists {
            // Something has the name: only a folder will do.
            _ = try Descriptor(opening: path, .folder)
            return false
        }
    }
}
