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

    /// The folder, through which every read and write goes.
    let folder: StoreFolder
    /// Where `get` reports the values it read as nil because they did not decode; shared by copies of the store.
    private let decodingFailures = DecodingFailureReports()

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
    public init(
        directory: StorageDirectory = .applicationSupport,
        namespace: String,
        fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
        durability: Durability = .atomic
    ) {
        self.directory = directory
        self.namespace = namespace
        self.fileProtection = fileProtection
        self.durability = durability
        self.folder = StoreFolder(
            directory: directory,
            namespace: namespace,
            protection: fileProtection,
            durability: durability
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

extension DiskKVStore {
    /// Sends each value that ``get(_:)`` reads as nil because it does not decode (a model that changed, a damaged
    /// file) to `handler`, on the thread of the read; nil sends them to nobody, as before the first call.
    ///
    /// Connect it to the app's logging, so that a value lost to a model change leaves a trace:
    ///
    /// ```swift
    /// store.reportDecodingFailures { failure in logger.error("\(failure)") }
    /// ```
    public func reportDecodingFailures(to handler: (@Sendable (KVDecodingFailure) -> Void)?) {
        decodingFailures.send(to: handler)
    }
}

extension DiskKVStore: KVStoring {
    /// Returns the value stored for `key` or migrated from an older one, or nil when there is none or it does not
    /// decode as `T` (reported to ``reportDecodingFailures(to:)``'s handler).
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        decodingFailures.get(key) { try value(for: key) }
    }

    /// Returns the value stored for `key` or migrated from an older one; nil when the key has no file.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` when the file's JSON does not decode as `T`
    ///   (also a damaged file), or ``KVStoreError/readFailed(key:underlying:)`` when the file cannot be read (a
    ///   folder or a link in its place, a denied permission). A key too long for a file name is found by the key
    ///   written in its file, so a damaged file of such a key cannot be told from another key's and reads as nil.
    public func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try key.resolvingMigrations(in: self) { plain in
            switch KeyFileName(key: plain.key) {
            case .exact(let name):
                guard let data = try readFile(name, for: plain.key) else { return nil }
                return try decoding(plain) { try JSONCodec.decode(T.self, from: data) }
            case .hashed(let names):
                for name in names {
                    guard let data = try readFile(name, for: plain.key),
                        (try? JSONCodec.decode(LongKeyHeader.self, from: data))?.key == plain.key
                    else { continue }
                    return try decoding(plain) { try JSONCodec.decode(LongKeyEnvelope<T>.self, from: data).value }
                }
                return nil
            }
        }
    }

    /// Stores `value` for `key` in its file, atomically.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``;
    ///   the previous value is kept either way.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        switch KeyFileName(key: key.key) {
        case .exact(let name):
            try write(encoding(key) { try JSONCodec.encode(value) }, toFile: name, for: key.key)
        case .hashed(let names):
            let data = try encoding(key) { try JSONCodec.encode(LongKeyEnvelope(key: key.key, value: value)) }
            // A free slot is claimed without replacing, so two keys that share a hash and are written at the
            // same time never take the same slot: the loser looks again.
            for _ in 0..<KeyFileName.slotCount {
                let slot = try slot(for: key.key, among: names)
                do {
                    try write(data, toFile: slot.name, for: key.key, replaceExisting: slot.replace)
                    return
                } catch KVStoreError.writeFailed where !slot.replace && fileExists(slot.name) {
                    continue
                }
            }
            throw KVStoreError.writeFailed(key: key.key, underlying: "every file name for this key's hash is taken")
        }
    }

    /// Removes `key`'s file, and those of the older names its migrations read.
    ///
    /// The older names go first and the key last, so a remove cut short (a crash, a failure) leaves the current
    /// value readable rather than bringing an older one back through a migration. Succeeds when there is none.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when the file cannot be removed.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        for name in key.storedNames.reversed() {
            try removeFile(of: name)
        }
    }

    /// Returns true when `key`, or an older name its migrations read, has a file.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        key.storedNames.contains { hasFile($0) }
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

    /// The result of `decode`, or ``KVStoreError/decodingFailed(key:underlying:)`` naming `key`.
    private func decoding<T>(_ key: KVKey<T>, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch {
            throw KVStoreError.decodingFailed(key: key.key, underlying: String(describing: error))
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

    /// The file's data when the file named `name` exists and holds the envelope of `key`.
    private func readEnvelope(named name: String, for key: String) -> Data? {
        guard let data = try? folder.read(name),
            let header = try? JSONCodec.decode(LongKeyHeader.self, from: data),
            header.key == key
        else { return nil }
        return data
    }

    /// The file among `names` that holds `key`, or else the first that holds nothing, or nothing readable.
    ///
    /// `replace` is true when the file is to be replaced (it holds `key`, or is damaged and holds no key to
    /// lose, so the next write repairs it), false when it is missing and to be claimed without replacing.
    private func slot(for key: String, among names: [String]) throws -> (name: String, replace: Bool) {
        var firstFree: (name: String, replace: Bool)?
        for name in names {
            let data: Data
            do {
                data = try folder.read(name)
            } catch {
                if firstFree == nil { firstFree = (name, !error.isNotFound) }
                continue
            }
            guard let header = try? JSONCodec.decode(LongKeyHeader.self, from: data) else {
                if firstFree == nil { firstFree = (name, true) }
                continue
            }
            if header.key == key { return (name, true) }
        }
        guard let firstFree else {
            throw KVStoreError.writeFailed(key: key, underlying: "every file name for this key's hash is taken")
        }
        return firstFree
    }

    /// The result of `encode`, or ``KVStoreError/encodingFailed(key:underlying:)`` naming `key`.
    private func encoding<T>(_ key: KVKey<T>, _ encode: () throws -> Data) throws -> Data {
        do {
            return try encode()
        } catch {
            throw KVStoreError.encodingFailed(key: key.key, underlying: String(describing: error))
        }
    }

    /// Writes `data` to the file `name` atomically, or throws ``KVStoreError/writeFailed(key:underlying:)``.
    private func write(_ data: Data, toFile name: String, for key: String, replaceExisting: Bool = true) throws {
        do {
            try folder.write(data, as: name, replacing: replaceExisting)
        } catch {
            throw KVStoreError(error, writing: key)
        }
    }

    /// Whether a regular file named `name` is in the folder; a link in its place is not.
    private func fileExists(_ name: String) -> Bool {
        (try? folder.status(of: name))?.kind == .file
    }
}

/// The contents of a long key's file: the key itself beside its value.
private struct LongKeyEnvelope<Value: Codable>: Codable {
    var key: String
    var value: Value
}

/// The key of a long key's file, read without decoding the value.
private struct LongKeyHeader: Decodable {
    var key: String
}
