internal import ForgeCore
public import ForgeFileStore
internal import Foundation

/// Any file store with a test's faults injected before each call it makes to its storage, and each call logged:
/// what `InMemoryFileStore(label:faults:log:)` does for the in-memory twin, for every other store.
///
/// A fault fails a call as a full disk or a denied permission fails `DiskFileStore`, whatever the store underneath:
///
/// ```swift
/// let faults = StoreFaults()
/// let files = DiskFileStore(directory: .custom(folder), namespace: "docs").injectingFaults(faults)
/// faults.failNext(.write, with: .outOfSpace)
/// await #expect(throws: FileStoreError.self) { try await files.save(Data(), to: "a.txt") }
/// ```
public struct FaultInjectingFileStore<Base: FileBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: FileFaultPoint

    /// Wraps `base`, taking faults from `faults` and logging each call to `log` as the store `label`.
    init(_ base: Base, label: String, faults: StoreFaults?, log: OperationLog?) {
        self.base = base
        self.faults = FileFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
    }
}

extension FaultInjectingFileStore: FileStoring, FileBackend {
    /// `base`'s file at `path`, unless a fault fails or damages the read.
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        let damaged = try faults.read(path)
        let data = try await base.contents(at: path)
        return damaged ? faults.damaged(data) : data
    }

    /// Writes `data` to `base`, unless a fault fails the write.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try faults.write(path)
        try await base.write(data, at: path, replacing: replacing)
    }

    /// Removes `path` from `base`, unless a fault fails the removal.
    public nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        try faults.remove(path)
        return try await base.removeFile(at: path)
    }

    /// Whether `base` holds a file at `path`; false when a fault hides it.
    public func hasFile(at path: StoredFilePath) -> Bool {
        !faults.hides(path) && base.hasFile(at: path)
    }

    /// `base`'s size and date of the file at `path`; nil when a fault hides it, as ``hasFile(at:)`` answers false.
    public func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        if faults.hides(path) { return nil }
        return try base.storedFileInfo(at: path)
    }

    /// `base`'s names in `folder`, unless a fault fails the listing.
    public nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try faults.list(folder)
        return try await base.entryNames(in: folder)
    }

    /// Removes everything from `base`, unless a fault fails it.
    public nonisolated(nonsending) func removeAll() async throws {
        try faults.removeAll()
        try await base.removeAll()
    }

    /// `base`'s total size, unless a fault fails the walk.
    public nonisolated(nonsending) func storedSize() async throws -> Int {
        try faults.list(nil)
        return try await base.storedSize()
    }
}

extension FileBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "files"
    ) -> FaultInjectingFileStore<Self> {
        FaultInjectingFileStore(self, label: label, faults: faults, log: log)
    }
}

extension FaultInjectingFileStore: AsyncFileStoring {}

extension FaultInjectingFileStore: FileChangeObserving, AsyncFileChangeObserving where Base: FileChangeObserving {
    /// `base`'s changes in `folder`, which faults do not touch: see `FileChangeObserving.changes(in:)`.
    ///
    /// - Throws: `FileStoreError.invalidPath(path:reason:)` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        try base.changes(in: folder)
    }
}

extension FaultInjectingFileStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalFileStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// The faults, then the wrappers below: a transaction's write meets the faults the same write made alone does,
    /// before anything is applied.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [faults] + base.interceptorsOfStagedWrites
    }
}

extension FaultInjectingFileStore: TransactionalFileStore where Base: TransactionalFileStore {}
