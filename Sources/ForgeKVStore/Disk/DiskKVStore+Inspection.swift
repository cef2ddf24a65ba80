internal import Foundation
internal import ForgeCore

/// Reading a store without knowing its keys in advance, for tools that inspect a data folder (such as the
/// `forge inspect` command of the examples) and for migrations.
extension DiskKVStore {
    /// The keys that have a value in this store, each in its canonical (NFC) form, in the folder's order.
    ///
    /// Each key is recovered from its file's name (the escape is reversible) or, for a key too long for a
    /// file name, from the key written beside its value. Files that no key produces (a stray `notes.txt`, a
    /// temporary file of a running write) and shortened-name files whose key cannot be read are skipped. A folder
    /// that does not exist yet has no keys; another store on the same folder, in any process, lists the same.
    ///
    /// Given `date`, only the keys whose value has not expired then: each file is read, whole, for its
    /// `ExpiryHeader` (a file that cannot be read, or whose header is damaged, is listed, as its key holds a value
    /// that reads as nil); without it, only the files of keys too long for a name are read.
    ///
    /// With `readingOnly`, only those of the files of keys that fit a file name are read for their header: the files
    /// that the index of lifetimes says may have expired.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` when the folder cannot be listed.
    func listedKeys(liveAt date: Date? = nil, readingOnly mayHaveExpired: Set<String>? = nil) throws -> [String] {
        let entries: [FolderEntry]
        do {
            entries = try folder.list()
        } catch {
            throw KVStoreError(listing: error)
        }
        var keys: [String] = []
        for entry in entries where entry.kind == .file {
            guard entry.name.hasSuffix(KeyFileName.fileExtension) else { continue }
            let stem = String(entry.name.dropLast(KeyFileName.fileExtension.count))
            if stem.contains("~") {
                // A shortened name: the key is in the file.
                guard let data = try? folder.read(entry.name), let contents = ExpiryHeader.read(data),
                    let key = Self.envelopeKey(in: contents.body),
                    KeyFileName(key: key).candidates.contains(entry.name),
                    !Self.hasExpired(contents, at: date)
                else { continue }
                keys.append(FileNameEncoding.canonicalForm(of: key))
            } else if let key = KeyFileName.key(ofExactName: entry.name) {
                if let date, mayHaveExpired?.contains(entry.name) ?? true, fileHasExpired(entry.name, at: date) {
                    continue
                }
                keys.append(key)
            }
        }
        return keys
    }

    /// Whether the file `name` has gone since it was listed, or holds a value that has expired at `date`; false when
    /// it cannot be read or its header is damaged.
    private func fileHasExpired(_ name: String, at date: Date) -> Bool {
        do {
            return ExpiryHeader.read(try folder.read(name)).map { Self.hasExpired($0, at: date) } ?? false
        } catch {
            return error.isNotFound
        }
    }

    /// Whether `contents`, a file's, hold a value that has expired at `date`; false without a date.
    static func hasExpired(_ contents: ExpiryHeader.Contents, at date: Date?) -> Bool {
        guard let date, let milliseconds = contents.expiresAtMilliseconds else { return false }
        return KVStoredValue.date(milliseconds: milliseconds) <= date
    }

    /// The namespace whose folder has the name `folderName`, or nil when no namespace is stored under it.
    ///
    /// Every disk store (`DiskKVStore`, `DiskFileStore`, `EncryptedFileCrypt`) names its folder by the same
    /// reversible escape of its namespace, so this turns the folders of a data folder back into the
    /// namespaces to open them with.
    ///
    /// ```swift
    /// DiskKVStore.namespace(forFolderNamed: "taskflow-settings")  // "taskflow-settings"
    /// DiskKVStore.namespace(forFolderNamed: "^my ^app")           // nil: no namespace makes this name
    /// ```
    ///
    /// - Parameter folderName: The last path component of a namespace folder.
    /// - Returns: The namespace, or nil when `folderName` is not the escaped form of one.
    public static func namespace(forFolderNamed folderName: String) -> String? {
        guard let namespace = FileNameEncoding.decode(folderName),
            FileNameEncoding.folderName(forNamespace: namespace) == folderName
        else { return nil }
        return namespace
    }
}

extension KeyFileName {
    /// Every file name this key may be stored under.
    var candidates: [String] {
        switch self {
        case .exact(let name): [name]
        case .hashed(let names): names
        }
    }
}
