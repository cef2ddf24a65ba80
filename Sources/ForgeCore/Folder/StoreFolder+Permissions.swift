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
        let created = try Descriptor.makeFolders(atPath: path, permissions: options.folderPermissions)
        if created { try applyProtection(toPath: path) }
        guard exactPermissions else { return created }
        let folder = try openRoot(creating: false)
        if try folder.status(regularFile: false).permissions != options.folderPermissions {
            try folder.setPermissions(options.folderPermissions)
        }
        return created
    }
}
