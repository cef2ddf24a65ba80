extension FileNameEncoding {
    /// The folder name for a store's namespace: escaped like a key by ``encode(_:)``, and, when that is too
    /// long for a file name, ``shortened(_:hashOf:)``.
    ///
    /// Every disk store names its folder this way, so a namespace never leaves its base folder.
    package static func folderName(forNamespace namespace: String) -> String {
        let encoded = encode(namespace)
        guard encoded.utf8.count > maximumNameLength else { return encoded }
        return shortened(encoded, hashOf: namespace)
    }

    /// A name too long for the file system, cut to a readable 200-byte prefix, then `~` and the
    /// ``stableHash(_:)`` of `original` (`~` never occurs in an escaped name, so a shortened name never
    /// equals an exact one).
    package static func shortened(_ encoded: String, hashOf original: String) -> String {
        truncatedEncodedName(encoded, maximumBytes: 200) + "~" + stableHash(original)
    }
}
