internal import Foundation

extension StoreFolder {
    /// The files and folders directly in the sub-folder `folders` that a path can reach, named in NFC, in no
    /// particular order.
    ///
    /// Left out: temporary files; names that are not UTF-8; names in another spelling than NFC or NFD, which a
    /// lookup does not find; and names whose NFC spelling is too long for a name (NFC lengthens a few scripts).
    /// Of two spellings of one name, the NFC one is listed, as lookups find it first. Everything listed can
    /// therefore be read, written and removed through its listed name. A folder that does not exist, or is a file,
    /// lists as empty.
    package func list(in folders: ArraySlice<String> = []) throws(FileSystemError) -> [FolderEntry] {
        options.accessLog?.recordListing()
        let folder: Descriptor
        do {
            folder = try openFolder(folders, creating: false)
        } catch  where error.isNotFound {
            return []
        }
        return try Self.listing(of: folder)
    }

    /// The sum of the sizes of the regular files that listings show, in the folder and all folders beneath it.
    ///
    /// Symbolic links are not followed. Zero when the folder does not exist.
    package func totalSize() throws(FileSystemError) -> Int {
        let root: Descriptor
        do {
            root = try openRoot(creating: false)
        } catch  where error.isMissing {
            return 0
        }
        return try Self.totalSize(of: root)
    }

    private static func totalSize(of folder: Descriptor) throws(FileSystemError) -> Int {
        var total = 0
        for entry in try listing(of: folder) {
            switch entry.kind {
            case .file:
                // A file removed or replaced since the listing counts as nothing.
                guard let status = try? folder.status(of: entry.storedName), status.kind == .file else {
                    continue
                }
                total += status.size
            case .folder:
                let child: Descriptor
                do {
                    child = try folder.openEntry(entry.storedName, .folder)
                } catch  where error.isNotFound || error.isSymbolicLink {
                    // Removed, or replaced by a file or a link, since the listing: nothing to count.
                    continue
                }
                total += try totalSize(of: child)
            case .symbolicLink, .other:
                continue
            }
        }
        return total
    }

    /// The entries of the open `folder` as ``list(in:)`` shows them.
    static func listing(of folder: Descriptor) throws(FileSystemError) -> [FolderEntry] {
        let entries = try folder.entries()
        var listed: [FolderEntry] = []
        listed.reserveCapacity(entries.count)
        var respelled = false
        for entry in entries where entry.storedName.isUTF8 && !TemporaryName.isTemporary(entry.name) {
            // Nearly every name is in NFC already (an ASCII name always is): it is listed as it is.
            if FileNameEncoding.isCanonical(entry.name) {
                listed.append(entry)
                continue
            }
            let canonical = FileNameEncoding.canonicalForm(of: entry.name)
            // Foundation's NFC, which names the files the stores write, has the last word where the two disagree.
            if canonical.utf8.elementsEqual(entry.name.utf8) {
                listed.append(entry)
                continue
            }
            guard canonical.utf8.count <= FileNameEncoding.maximumNameLength,
                entry.name.utf8.elementsEqual(canonical.decomposedStringWithCanonicalMapping.utf8)
            else { continue }
            var renamed = entry
            renamed.name = canonical
            respelled = true
            listed.append(renamed)
        }
        guard respelled else { return listed }
        // An NFD name whose NFC spelling is on disk too is hidden behind it.
        let onDisk = Set(listed.filter { !$0.isRespelled }.map(\.name))
        return listed.filter { !$0.isRespelled || !onDisk.contains($0.name) }
    }
}

extension FolderEntry {
    /// Whether the entry is shown under another spelling than its name on disk.
    fileprivate var isRespelled: Bool { !storedName.string.utf8.elementsEqual(name.utf8) }
}
