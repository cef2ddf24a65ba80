extension StoreFolder {
    /// What a path beneath the store folder holds, as listings show it: a file and its version, a folder, or nothing
    /// a store shows (no entry, a link, a FIFO).
    package enum EntryVersion: Sendable, Equatable {
        /// A regular file, in this version.
        case file(FileVersion)
        /// A folder.
        case folder
        /// Nothing a store shows.
        case nothing
    }

    /// What the path made of `components` holds now, reached without following a link.
    ///
    /// `.nothing` when it cannot be read. No components is the store folder itself.
    package func entryVersion(at components: [String]) -> EntryVersion {
        guard let name = components.last else { return (try? openRoot(creating: false)) == nil ? .nothing : .folder }
        guard let folder = try? openFolder(components.dropLast(), creating: false),
            let found = try? folder.version(of: storedName(of: name, in: folder))
        else { return .nothing }
        switch found.kind {
        case .file: return .file(found.version)
        case .folder: return .folder
        case .symbolicLink, .other: return .nothing
        }
    }

    /// The version of every file listings show in the folder made of `components` and the folders beneath it, by
    /// path relative to the store folder; empty when the folder cannot be read.
    package func fileVersions(under components: [String]) -> [String: FileVersion] {
        guard let folder = try? openFolder(components[...], creating: false) else { return [:] }
        var versions: [String: FileVersion] = [:]
        Self.collectVersions(in: folder, at: components.joined(separator: "/"), into: &versions)
        return versions
    }

    /// Adds the versions of the files in the open `folder`, whose path is `path`, and beneath it to `versions`.
    private static func collectVersions(
        in folder: Descriptor,
        at path: String,
        into versions: inout [String: FileVersion]
    ) {
        guard let entries = try? listing(of: folder) else { return }
        for entry in entries {
            let entryPath = path.isEmpty ? entry.name : path + "/" + entry.name
            switch entry.kind {
            case .file:
                // Replaced or removed since the listing: what is there now, if a file.
                guard let found = try? folder.version(of: entry.storedName), found.kind == .file else { continue }
                versions[entryPath] = found.version
            case .folder:
                guard let child = try? folder.openEntry(entry.storedName, .folder) else { continue }
                collectVersions(in: child, at: entryPath, into: &versions)
            case .symbolicLink, .other:
                continue
            }
        }
    }
}
