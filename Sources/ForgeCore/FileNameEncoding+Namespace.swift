extension FileNameEncoding {
    /// The folder name for a store's namespace: escaped like a key by ``encode(_:)``, and, when that is too
    /// long for a file name, a readable prefix, `~` and the ``stableHash(_:)`` of the namespace (`~` never
    /// occurs in an escaped name, so a shortened name never equals an exact one).
    ///
    /// Every disk store names its folder this way, so a namespace never leaves its base folder.
    package static func folderName(forNamespace namespace: String) -> String {
        let encoded = encode(namespace)
        guard encoded.utf8.count > maximumNameLength else { return encoded }
        return truncatedEncodedName(encoded, maximumBytes: 200) + "~" + stableHash(namespace)
    }
}
