public import Foundation
internal import ForgeCore

/// A ``KVStoring`` that keeps each key in its own JSON file: `{directory}/{namespace}/{key}.json`.
///
/// The store is a stateless struct: every call does its own file I/O, so any number of instances, in any
/// number of tasks or processes, see the same values. Use it for values too large for `UserDefaults`,
/// for per-store Data Protection, and on servers.
///
/// ```swift
/// let store = DiskKVStore(directory: .applicationSupport, namespace: "taskflow-settings")
/// try store.set(TaskKeys.taskCount, value: 42)
/// ```
///
/// ## File names
/// Any string is a valid key. The file name is a reversible escape of the key (see the package
/// documentation): lowercase letters, digits, `-`, `_` and `.` stay readable, an uppercase letter becomes
/// `^` and the letter, and everything else becomes `%` and hex digits, so `taskflow.projectName` is stored
/// in `taskflow.project^name.json`. Keys therefore never collide (also not on case-folding volumes) and
/// never leave the namespace folder: `../x`, `/etc/passwd`, NUL and the empty key are ordinary keys.
/// A key whose escaped form is too long for a file name is stored under a shortened name with a hash, and
/// its file then holds `{"key": …, "value": …}` so the store can tell keys that share a hash apart.
///
/// ## Atomicity and durability
/// A write goes to a temporary file in the namespace folder that is then renamed over the key's file, so
/// a reader, or a process that crashes mid-write, finds the old value or the new one, never a torn or
/// empty file; a failed write leaves no temporary file. What a power loss or kernel panic keeps is the
/// store's `Durability`: with `Durability.atomic` (the default, like `UserDefaults`) writes are not
/// flushed, so the most recent ones may be lost, and on file systems that do not order a rename after its
/// data a file written just before may read as empty (and so as nil); with `Durability.flushed` each
/// `set` flushes the file before the rename and the folder after, so a `set` that returned is kept.
/// Temporary files of crashed processes are removed, in the background, by the first store created for the
/// namespace in a process.
///
/// ## Reading
/// A value is read as `T` when its JSON decodes as `T`, whatever type wrote it (an `Int` reads as a
/// `Double`). A file that is corrupt, or whose JSON does not decode as `T`, reads as nil and never traps;
/// the next `set` replaces it. A symbolic link in a key's place is never followed: it reads as nil, is not
/// contained or listed, and the next `set` or ``removeAll()`` removes the link itself.
///
/// ## Lifetimes
/// The store keeps lifetimes (``ExpiringKVStoring``): a value set with one reads as missing from its expiration
/// date on, by the clock of the store's ``expiry``. Its file then starts with one line, `#expires ` and the date in
/// whole milliseconds since 1970, then holds what it would without a lifetime:
///
/// ```
/// #expires 1767229200000
/// "t0k3n"
/// ```
///
/// A value without a lifetime is written exactly as before lifetimes came, and a file without the line (one an older
/// version wrote) reads as a value without a lifetime; a file whose line is damaged reads as a corrupt file does.
///
/// A store that never stores a lifetime pays nothing for them: `contains` asks only for the file's status, `keys()`
/// only for the folder's listing, and a reclaim removes nothing and reads nothing, each after one `stat` that finds no
/// file `.forge-lifetimes` in the folder. The first value stored with a lifetime, through any instance or process,
/// makes that file, an index of the files that hold a lifetime and when each expires, and every write of a lifetime
/// adds a line to it before writing its value (flushed first with `Durability.flushed`). From then on `contains` and
/// `keys()` read the index (only what was added since this instance last read it) and then only the files that may
/// have expired; `reclaimExpiredValues(limit:)` reads and removes only those, and adds a line to the index that forgets
/// each, under the folder's exclusive lock, so it never removes a value set again meanwhile, by any process. An index that
/// is damaged is never trusted: every file is then read, as it would be without one, until the next reclaim writes it
/// again from the files. It stays until ``removeAll()`` removes the folder with it. Its name ends in no `.json`, so it
/// is never a key. With `Durability.atomic`, a power loss may keep a value's file without its line in the index: `get`
/// still reads the value as expired, but `contains` and `keys()` count it, and no reclaim removes it, until it is set
/// again or removed.
public struct DiskKVStore: Sendable {
    /// The base folder the namespace folder lives in.
    public let directory: StorageDirectory
    /// The name of this store's folder inside ``directory``.
    public let namespace: String
    /// The Data Protection level applied to the folder and each file.
    ///
    /// No effect on Linux.
    public let fileProtection: FileProtection
    /// Whether each write is flushed to the device: see `Durability`.
    public let durability: Durability
    /// The folder that holds this store's files: ``directory``, then the escaped ``namespace``.
    public let folderURL: URL
    /// How the store keeps values with a lifetime: the clock they expire by, and how its writes reclaim expired
    /// values (see ``KVExpiry``).
    public let expiry: KVExpiry?

    /// The folder, through which every read and write goes.
    let folder: StoreFolder
    /// What this instance last read of the folder's index of lifetimes (`.forge-lifetimes`).
    let lifetimes = LifetimesIndexCache()

    /// Creates a store for the files in `{directory}/{namespace}/`.
    ///
    /// The folder is created on the first write. The first store for a folder in a process starts removing, in
    /// the background, the temporary files that processes which crashed while writing left in it: the store
    /// answers at once, and never reads or lists those files meanwhile.
    ///
    /// - Parameters:
    ///   - directory: The base folder. Defaults to `StorageDirectory.applicationSupport`.
    ///   - namespace: The folder name for this store's values. Any string: it is escaped like a key, so
    ///     namespaces never share files and never leave `directory`.
    ///   - fileProtection: The Data Protection level on Apple platforms; no effect on Linux.
    ///   - durability: Whether each write is flushed to the device before `set` returns. Defaults to
    ///     `Durability.atomic`: atomic, not flushed, like `UserDefaults`.
    ///   - expiry: The clock and reclaiming of values with a lifetime (see ``ExpiringKVStoring``). Defaults to the
    ///     system clock's; a test gives it ForgeStorageTesting's `ManualExpiryClock`. Every instance on a folder
    ///     should read the same clock.
    public init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
        durability: Durability = .atomic,
        expiry: KVExpiry = KVExpiry()
    ) {
        self.init(
            directory: directory,
            namespace: namespace,
            fileProtection: fileProtection,
            durability: durability,
            expiry: expiry,
            accessLog: nil
        )
    }

    /// Creates a store whose folder counts its reads and listings in `accessLog`.
    ///
    /// For a test that proves a call reads no file; see the public initializer for the other parameters.
    package init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
        durability: Durability = .atomic,
        expiry: KVExpiry = KVExpiry(),
        accessLog: FolderAccessLog?
    ) {
        self.directory = directory
        self.namespace = namespace
        self.fileProtection = fileProtection
        self.durability = durability
        self.expiry = expiry
        self.folder = StoreFolder(
            directory: directory,
            namespace: namespace,
            protection: fileProtection,
            durability: durability,
            configure: {
                $0.accessLog = accessLog
                // The reclaim of expired values removes a file only while no write or remove changes one.
                $0.locksChanges = true
            }
        )
        self.folderURL = folder.url
        folder.removeLeftoversOnce()
    }

    /// The file that holds (or would hold) `key`'s value, when the key's escaped name fits a file name.
    ///
    /// Returns nil for keys so long that their file name is shortened with a hash.
    public func fileURL<T>(for key: KVKey<T>) -> URL? {
        guard case .exact(let name) = KeyFileName(key: key.key) else { return nil }
        return folderURL.appendingPathComponent(name, isDirectory: false)
    }
}

extension DiskKVStore: ExpiringKVStoring, KVBackend {
    /// The value in `name`'s file, with its expiration date when the file has an `ExpiryHeader`; nil when the name
    /// has no file.
    ///
    /// A file whose header is damaged reads as a corrupt file does: a value whose JSON decodes as no type.
    ///
    /// - Throws: ``KVStoreError/readFailed(key:underlying:)`` when the file cannot be read (a folder or a link in its
    ///   place, a denied permission). A name too long for a file name is found by the name written in its file, so a
    ///   damaged file of such a name cannot be told from another name's and reads as nil.
    public func storedValue(named name: String) throws -> KVStoredValue? {
        try storedValue(named: name) { fileName in try readFile(fileName, for: name) }
    }

    /// The value of `name`, its files read with `read` (nil: no file of that name), as ``storedValue(named:)`` reads
    /// them.
    func storedValue(named name: String, reading read: (_ fileName: String) throws -> Data?) throws -> KVStoredValue? {
        switch KeyFileName(key: name) {
        case .exact(let fileName):
            guard let data = try read(fileName) else { return nil }
            guard let contents = ExpiryHeader.read(data) else { return KVStoredValue(json: data) }
            return KVStoredValue(json: contents.body, expiresAtMilliseconds: contents.expiresAtMilliseconds)
        case .hashed(let fileNames):
            for fileName in fileNames {
                guard let data = try read(fileName), let contents = ExpiryHeader.read(data),
                    Self.envelopeKey(in: contents.body) == name
                else { continue }
                return KVStoredValue(
                    .wrapped(contents.body),
                    expiresAt: contents.expiresAtMilliseconds.map(KVStoredValue.date(milliseconds:))
                )
            }
            return nil
        }
    }

    /// Writes `value` to `name`'s file, atomically; a value with a lifetime (``KVStoredValue/expiresAt``) after an
    /// `ExpiryHeader`, a value without one as the store wrote values before lifetimes came.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)``; the previous value is kept.
    public func store(_ value: KVStoredValue, named name: String) throws {
        let expiresAt = value.expiresAtMilliseconds
        let data = try fileContents(holding: value, named: name)
        switch KeyFileName(key: name) {
        case .exact(let fileName):
            try write(data, toFile: fileName, for: name, expiresAtMilliseconds: expiresAt)
        case .hashed(let fileNames):
            // A free slot is claimed without replacing, so two keys that share a hash and are written at the
            // same time never take the same slot: the loser looks again.
            for _ in 0..<KeyFileName.slotCount {
                let slot = try slot(for: name, among: fileNames)
                do {
                    try write(
                        data,
                        toFile: slot.name,
                        for: name,
                        replaceExisting: slot.replace,
                        expiresAtMilliseconds: expiresAt
                    )
                    return
                } catch KVStoreError.writeFailed where !slot.replace && fileExists(slot.name) {
                    continue
                }
            }
            throw KVStoreError.writeFailed(key: name, underlying: "every file name for this key's hash is taken")
        }
    }

    /// Removes `name`'s file; succeeds when there is none.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when the file cannot be removed.
    public func removeValue(named name: String) throws {
        try removeFile(of: name)
    }

    /// Whether `name` has a file: a `stat`, no read (a name too long for a file name reads its candidates).
    public func hasValue(named name: String) -> Bool {
        hasFile(name)
    }

    /// The names of the key files in the folder: see `listedKeys()`.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)``.
    public func storedNames() throws -> [String] {
        try listedKeys()
    }

    /// Removes the namespace folder and every value in it, at once; other namespaces are untouched.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the folder cannot be removed.
    public func removeAll() throws {
        do {
            try folder.removeAll()
        } catch {
            throw KVStoreError(error, removing: nil)
        }
    }
}

extension DiskKVStore {
    /// The data of the file `name`, which holds `key`'s value; nil when there is no such file.
    private func readFile(_ name: String, for key: String) throws -> Data? {
        do {
            return try folder.read(name)
        } catch  where error.isNotFound {
            return nil
        } catch {
            throw KVStoreError(error, reading: key)
        }
    }

    /// Removes the file of the key `key`, when it has one.
    private func removeFile(of key: String) throws {
        let name: String
        switch KeyFileName(key: key) {
        case .exact(let exactName):
            name = exactName
        case .hashed(let names):
            guard let found = names.first(where: { readEnvelope(named: $0, for: key) != nil }) else { return }
            name = found
        }
        do {
            try folder.remove(name)
        } catch  where error.isMissing {
            // Nothing stored: done.
        } catch {
            throw KVStoreError(error, removing: key)
        }
    }

    /// Whether the key `key` has a file.
    private func hasFile(_ key: String) -> Bool {
        switch KeyFileName(key: key) {
        case .exact(let name):
            fileExists(name)
        case .hashed(let names):
            names.contains { readEnvelope(named: $0, for: key) != nil }
        }
    }

    /// The file's data when the file named `name` exists and holds the envelope of `key`, after a header or not.
    private func readEnvelope(named name: String, for key: String) -> Data? {
        guard let data = try? folder.read(name), let contents = ExpiryHeader.read(data),
            Self.envelopeKey(in: contents.body) == key
        else { return nil }
        return data
    }

    /// The key written in `body`, a long key's envelope (a file's contents after its `ExpiryHeader`); nil when it
    /// holds none.
    static func envelopeKey(in body: Data) -> String? {
        (try? JSONCodec.decode(LongKeyHeader.self, from: body))?.key
    }

    /// The file among `names` that holds `key`, or else the first that holds nothing, or nothing readable.
    ///
    /// `replace` is true when the file is to be replaced (it holds `key`, or is damaged and holds no key to
    /// lose, so the next write repairs it), false when it is missing and to be claimed without replacing.
    func slot(
        for key: String,
        among names: [String],
        reading read: ((String) throws(FileSystemError) -> Data)? = nil
    ) throws -> (name: String, replace: Bool) {
        var firstFree: (name: String, replace: Bool)?
        for name in names {
            let data: Data
            do throws(FileSystemError) {
                if let read { data = try read(name) } else { data = try folder.read(name) }
            } catch {
                if firstFree == nil { firstFree = (name, !error.isNotFound) }
                continue
            }
            guard let holder = ExpiryHeader.read(data).flatMap({ Self.envelopeKey(in: $0.body) }) else {
                if firstFree == nil { firstFree = (name, true) }
                continue
            }
            if holder == key { return (name, true) }
        }
        guard let firstFree else {
            throw KVStoreError.writeFailed(key: key, underlying: "every file name for this key's hash is taken")
        }
        return firstFree
    }

    /// Writes `data` to the file `name` atomically, or throws ``KVStoreError/writeFailed(key:underlying:)``.
    ///
    /// A file with a lifetime (`expiresAtMilliseconds`) is first named in the folder's index of lifetimes
    /// (`.forge-lifetimes`, made when the folder has none).
    private func write(
        _ data: Data,
        toFile name: String,
        for key: String,
        replaceExisting: Bool = true,
        expiresAtMilliseconds: Int64?
    ) throws {
        do {
            if let index = Self.indexEntry(ofFile: name, expiringAt: expiresAtMilliseconds) {
                try folder.write(
                    data,
                    as: name,
                    replacing: replaceExisting,
                    indexedIn: index.name,
                    entry: index.entry,
                    header: index.header
                )
            } else {
                try folder.write(data, as: name, replacing: replaceExisting)
            }
        } catch {
            throw KVStoreError(error, writing: key)
        }
    }

    /// The contents of the file that holds `value` under `name`: its JSON, or for a name too long for a file name
    /// `{"key": …, "value": …}`, after an `ExpiryHeader` when it has a lifetime.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when a long name cannot be written as JSON.
    func fileContents(holding value: KVStoredValue, named name: String) throws -> Data {
        let body: Data =
            switch KeyFileName(key: name) {
            case .exact: value.json
            case .hashed: try LongKeyHeader.wrapping(value.json, of: name)
            }
        return ExpiryHeader.file(holding: body, expiresAtMilliseconds: value.expiresAtMilliseconds)
    }

    /// What a write of the file `fileName` expiring at `milliseconds` adds to the folder's index of lifetimes
    /// (`.forge-lifetimes`) first: nil for a file without a lifetime.
    static func indexEntry(
        ofFile fileName: String,
        expiringAt milliseconds: Int64?
    ) -> (name: String, entry: Data, header: Data)? {
        milliseconds.map {
            (
                LifetimesIndex.name,
                LifetimesIndex.addition(LifetimesIndex.entry(fileName: fileName, expiresAtMilliseconds: $0)),
                LifetimesIndex.newHeader()
            )
        }
    }

    /// Whether a regular file named `name` is in the folder; a link in its place is not.
    private func fileExists(_ name: String) -> Bool {
        (try? folder.status(of: name))?.kind == .file
    }
}

/// The key of a long key's file, `{"key": …, "value": …}`, read without decoding the value.
private struct LongKeyHeader: Decodable {
    var key: String

    /// The contents of `key`'s file: the key beside the value's `json`, as a JSON encoder with sorted keys writes
    /// them.
    static func wrapping(_ json: Data, of key: String) throws -> Data {
        do {
            return Data(#"{"key":"#.utf8) + (try JSONCodec.encode(key)) + Data(#","value":"#.utf8) + json
                + Data("}".utf8)
        } catch {
            throw KVStoreError.encodingFailed(key: key, underlying: String(describing: error))
        }
    }
}
