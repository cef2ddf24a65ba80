import ForgeCore
import ForgeFileStore
import ForgeStorageTesting
import Foundation

/// The files of every namespace on one backing, as a folder holds the namespace folders of disk stores.
final class FileBacking: Sendable {
    /// A file as stored: its path as first saved (NFC), its contents, and when it was last saved.
    struct StoredFile: Sendable {
        var path: String
        var data: Data
        var modificationDate: Date
    }

    /// One namespace's files, by key.
    struct Namespace: Sendable {
        var files: [[UInt8]: StoredFile] = [:]
        /// Folders a mutant leaves behind when their last file goes; always empty in the reference.
        var leftFolders: Set<String> = []
    }

    /// Every namespace, by name.
    let namespaces = LockedState<[String: Namespace]>([:])
}

/// A ``FileStoring`` that follows the documented rules of `FileStoring` and nothing else, in memory, with one lock;
/// and, given a ``FileMutant``, the same store broken in that one way.
///
/// Files are keyed by the UTF-8 bytes of their NFC path, and folders are derived from the files: a folder exists
/// while some file's path starts with it. A handle holds no state of its own but the cache of
/// ``FileMutant/cachesInTheHandle``.
struct FileReferenceStore: FileStoring {
    let backing: FileBacking
    let namespace: String
    let mutant: FileMutant?
    /// Where the race mutants park a save between its two steps while a concurrency check makes a rival call.
    let raceGate: RaceGate
    /// What this handle loaded and saved: used only by ``FileMutant/cachesInTheHandle``.
    private let cache = LockedState<[[UInt8]: Data]>([:])

    init(
        backing: FileBacking = FileBacking(),
        namespace: String = "main",
        mutant: FileMutant? = nil,
        raceGate: RaceGate = RaceGate()
    ) {
        self.backing = backing
        self.namespace = namespace
        self.mutant = mutant
        self.raceGate = raceGate
    }

    /// A subject with a second handle on the same namespace, a neighbour in another namespace of the backing, and
    /// the race gate they share.
    static func subject(_ mutant: FileMutant?) -> FileStoringConformance.Subject {
        let backing = FileBacking()
        let gate = RaceGate()
        var subject = FileStoringConformance.Subject(
            FileReferenceStore(backing: backing, mutant: mutant, raceGate: gate),
            reopen: { FileReferenceStore(backing: backing, mutant: mutant, raceGate: gate) },
            neighbour: FileReferenceStore(backing: backing, namespace: "neighbour", mutant: mutant, raceGate: gate)
        )
        subject.raceGate = gate
        return subject
    }
}

// MARK: - Paths

extension FileReferenceStore {
    /// `path` in NFC, checked against the documented rules.
    ///
    /// A path is refused when it is empty or absolute, holds a NUL, is over 1024 bytes, or has a name that is
    /// empty, `.`, `..` or over 255 bytes. A folder path may be empty (the top folder) or end in one `/`.
    private func checked(_ path: String, isFolder: Bool = false) throws -> String {
        var canonical = mutant == .keepsSpellings ? path : path.precomposedStringWithCanonicalMapping
        if isFolder && canonical.isEmpty { return "" }
        if isFolder && canonical.utf8.count > 1 && canonical.hasSuffix("/") { canonical.removeLast() }
        func refuse(_ reason: String) -> FileStoreError { .invalidPath(path: path, reason: reason) }
        if canonical.isEmpty { throw refuse("the path is empty") }
        if canonical.utf8.contains(0) { throw refuse("the path holds a NUL") }
        if canonical.hasPrefix("/") { throw refuse("the path is absolute") }
        if canonical.utf8.count > 1024 { throw refuse("the path is over 1024 bytes") }
        for name in Self.names(of: canonical) {
            if name.isEmpty { throw refuse("a name is empty") }
            if name == "." || (name == ".." && mutant != .acceptsDotDot) { throw refuse("a name is . or ..") }
            if name.utf8.count > 255 { throw refuse("a name is over 255 bytes") }
        }
        return canonical
    }

    /// The names of `path`, split on the byte `/` (a `/` and a combining mark after it are one Character).
    private static func names(of path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The key of a checked path.
    func key(_ path: String) -> [UInt8] {
        Array((mutant == .foldsCase ? path.lowercased() : path).utf8)
    }

    /// The checked paths of the folders on the way to `path`, outermost first.
    private static func ancestors(of path: String) -> [String] {
        let names = names(of: path)
        return (1..<max(names.count, 1)).map { names.prefix($0).joined(separator: "/") }
    }

    /// Whether `path` is a folder of `space`: some file lies beneath it.
    private func isFolder(_ path: String, in space: FileBacking.Namespace) -> Bool {
        let prefix = key(path) + [UInt8(ascii: "/")]
        return space.files.keys.contains { $0.starts(with: prefix) }
    }

    private static func isDotName(_ path: String) -> Bool {
        names(of: path).last?.hasPrefix(".") == true
    }

    /// Whether `path` holds a space, a `:` or a character outside ASCII: what ``FileMutant/deleteAllLeavesUnusualNames``
    /// leaves.
    private static func isUnusual(_ path: String) -> Bool {
        path.unicodeScalars.contains { $0 == " " || $0 == ":" || !$0.isASCII }
    }
}

// MARK: - FileStoring

extension FileReferenceStore {
    func save(_ data: Data, to path: String, overwrite: Bool) async throws {
        let checkedPath = try checked(path)
        if mutant == .checksThenSaves && !overwrite {
            if backing.namespaces.withLock({ $0[namespace]?.files[key(checkedPath)] != nil }) {
                throw FileStoreError.alreadyExists(path: path)
            }
            // Where a real store writes its temporary file, and another thread's save may run its check meanwhile.
            raceGate.betweenSteps()
            return try await save(data, to: path, overwrite: true)
        }
        if mutant == .savesInTwoSteps {
            // Creates the file empty, then fills it with the bytes it copied meanwhile.
            try backing.namespaces.withLock {
                try put(Data(), at: checkedPath, as: path, overwrite: overwrite, in: &$0)
            }
            let bytes = data.withUnsafeBytes { Data($0) }
            // Where a real store makes its next system call, and another thread may run.
            raceGate.betweenSteps()
            try backing.namespaces.withLock { try put(bytes, at: checkedPath, as: path, overwrite: true, in: &$0) }
        } else if mutant == .savesACopyOfEverything {
            var copy = backing.namespaces.withLock { $0 }
            try put(data, at: checkedPath, as: path, overwrite: overwrite, in: &copy)
            raceGate.betweenSteps()
            backing.namespaces.withLock { $0[namespace] = copy[namespace] }
        } else {
            try backing.namespaces.withLock { try put(data, at: checkedPath, as: path, overwrite: overwrite, in: &$0) }
        }
        if mutant == .cachesInTheHandle { cache.withLock { $0[key(checkedPath)] = data } }
    }

    /// Stores `data` at the checked path `checkedPath` (given as `path`), or throws what the rules say.
    private func put(
        _ data: Data,
        at checkedPath: String,
        as path: String,
        overwrite: Bool,
        in namespaces: inout [String: FileBacking.Namespace]
    ) throws {
        let fileKey = key(checkedPath)
        do {
            let space = namespaces[namespace] ?? FileBacking.Namespace()
            if Self.ancestors(of: checkedPath).contains(where: { space.files[key($0)] != nil }) {
                throw FileStoreError.writeFailed(path: path, reason: .parentIsFile)
            }
            if isFolder(checkedPath, in: space) && mutant != .savesOverFolders {
                throw FileStoreError.writeFailed(path: path, reason: .isFolder)
            }
            if space.files[fileKey] != nil && !overwrite && mutant != .ignoresOverwriteFalse {
                throw FileStoreError.alreadyExists(path: path)
            }
        }
        // In place, so the namespace's files are not copied.
        let now = Date()
        namespaces[namespace, default: FileBacking.Namespace()]
            .files[
                fileKey,
                default: FileBacking.StoredFile(path: checkedPath, data: data, modificationDate: now)
            ]
            .data = data
        if mutant != .keepsTheFirstSaveDate { namespaces[namespace]?.files[fileKey]?.modificationDate = now }
    }

    func load(_ path: String) async throws -> Data {
        let checkedPath = try checked(path)
        let fileKey = key(checkedPath)
        if mutant == .cachesInTheHandle, let cached = cache.withLock({ $0[fileKey] }) { return cached }
        let data = try backing.namespaces.withLock { namespaces in
            let space = namespaces[namespace] ?? FileBacking.Namespace()
            if let file = space.files[fileKey] { return file.data }
            if isFolder(checkedPath, in: space) { throw FileStoreError.readFailed(path: path, reason: .isFolder) }
            if mutant == .loadsMissingAsEmpty { return Data() }
            throw FileStoreError.notFound(path: path)
        }
        if mutant == .cachesInTheHandle { cache.withLock { $0[fileKey] = data } }
        return data
    }

    func exists(_ path: String) -> Bool {
        guard let checkedPath = try? checked(path) else { return false }
        return backing.namespaces.withLock { namespaces in
            let space = namespaces[namespace] ?? FileBacking.Namespace()
            return space.files[key(checkedPath)] != nil
                || (mutant == .existsForFolders && isFolder(checkedPath, in: space))
        }
    }

    func delete(_ path: String) async throws {
        let checkedPath = try checked(path)
        let fileKey = key(checkedPath)
        try backing.namespaces.withLock { namespaces in
            var space = namespaces[namespace] ?? FileBacking.Namespace()
            guard space.files.removeValue(forKey: fileKey) != nil else {
                if isFolder(checkedPath, in: space) { throw FileStoreError.deleteFailed(path: path, reason: .isFolder) }
                throw FileStoreError.notFound(path: path)
            }
            if mutant == .deleteLeavesEmptyFolders { space.leftFolders.formUnion(Self.ancestors(of: checkedPath)) }
            namespaces[namespace] = space
        }
        cache.withLock { $0[fileKey] = nil }
    }

    func list(in folder: String) async throws -> [String] {
        let checkedFolder = try checked(folder, isFolder: true)
        let depth = checkedFolder.isEmpty ? 0 : Self.names(of: checkedFolder).count
        let prefix = checkedFolder.isEmpty ? [] : key(checkedFolder) + (mutant == .listMatchesNamePrefixes ? [] : [47])
        var space = backing.namespaces.withLock { $0[namespace] } ?? FileBacking.Namespace()
        if mutant == .listsNeighbours {
            for other in backing.namespaces.withLock({ $0.values }) {
                space.files.merge(other.files) { mine, _ in mine }
            }
        }
        var entries = Set<String>()
        for (fileKey, file) in space.files where fileKey.starts(with: prefix) {
            let names = Self.names(of: file.path)
            let entry = names.prefix(depth + 1).joined(separator: "/")
            if mutant == .listHidesDotFiles && Self.isDotName(entry) { continue }
            let isFolderEntry = names.count > depth + 1 && mutant != .listsFoldersWithoutSlash
            entries.insert(isFolderEntry ? entry + "/" : entry)
        }
        for left in space.leftFolders where Self.names(of: left).count == depth + 1 && key(left).starts(with: prefix) {
            entries.insert(left + "/")
        }
        return mutant == .listsUnsorted ? Array(entries) : entries.sorted()
    }

    func deleteAll() async throws {
        backing.namespaces.withLock { namespaces in
            switch mutant {
            case .deleteAllClearsTheBacking: namespaces = [:]
            case .deleteAllLeavesDotFiles:
                let kept = namespaces[namespace]?.files.filter { Self.isDotName($0.value.path) } ?? [:]
                namespaces[namespace] = FileBacking.Namespace(files: kept)
            case .deleteAllLeavesUnusualNames:
                let kept = namespaces[namespace]?.files.filter { Self.isUnusual($0.value.path) } ?? [:]
                namespaces[namespace] = FileBacking.Namespace(files: kept)
            default: namespaces[namespace] = nil
            }
        }
        cache.withLock { $0 = [:] }
    }

    func totalSize() async throws -> Int {
        let space = backing.namespaces.withLock { $0[namespace] } ?? FileBacking.Namespace()
        return space.files.values.reduce(0) { sum, file in
            mutant == .totalSizeSkipsDotFiles && Self.isDotName(file.path) ? sum : sum + file.data.count
        }
    }
}
