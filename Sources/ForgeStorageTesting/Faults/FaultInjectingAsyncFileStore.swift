public import ForgeFileStore
internal import ForgeCore
internal import Foundation

/// Any asynchronous file store (such as `PostgresFileStore`) with a test's faults injected before each call it makes
/// to its storage, and each call logged: ``FaultInjectingFileStore`` for `AsyncFileBackend`.
public struct FaultInjectingAsyncFileStore<Base: AsyncFileBackend>: Sendable {
    /// The store every call goes to, once its fault, if any, has been injected.
    public let base: Base
    /// Where the faults enter.
    let faults: FileFaultPoint
}

extension FaultInjectingAsyncFileStore: AsyncFileStoring, AsyncFileBackend {
    /// `base`'s file at `path`, unless a fault fails or damages the read.
    public func contents(at path: StoredFilePath) async throws -> Data? {
        let damaged = try faults.read(path)
        let data = try await base.contents(at: path)
        return damaged ? faults.damaged(data) : data
    }

    /// Writes `data` to `base`, unless a fault fails the write.
    public func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try faults.write(path)
        try await base.write(data, at: path, replacing: replacing)
    }

    /// Removes `path` from `base`, unless a fault fails the removal.
    public func removeFile(at path: StoredFilePath) async throws -> Bool {
        try faults.remove(path)
        return try await base.removeFile(at: path)
    }

    /// Whether `base` holds a file at `path`; false when a fault hides it.
    public func hasFile(at path: StoredFilePath) async throws -> Bool {
        if faults.hides(path) { return false }
        return try await base.hasFile(at: path)
    }

    /// `base`'s size and date of the file at `path`; nil when a fault hides it, as ``hasFile(at:)`` answers false.
    public func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? {
        if faults.hides(path) { return nil }
        return try await base.storedFileInfo(at: path)
    }

    /// `base`'s names in `folder`, unless a fault fails the listing.
    public func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try faults.list(folder)
        return try await base.entryNames(in: folder)
    }

    /// Removes everything from `base`, unless a fault fails it.
    public func removeAll() async throws {
        try faults.removeAll()
        try await base.removeAll()
    }

    /// `base`'s total size, unless a fault fails the walk.
    public func storedSize() async throws -> Int {
        try faults.list(nil)
        return try await base.storedSize()
    }
}

extension AsyncFileBackend {
    /// This store, with the faults of `faults` injected before each call it makes to its storage, and each call logged
    /// to `log` as the store `label`.
    public func injectingFaults(
        _ faults: StoreFaults? = nil,
        log: OperationLog? = nil,
        label: String = "files"
    ) -> FaultInjectingAsyncFileStore<Self> {
        FaultInjectingAsyncFileStore(
            base: self,
            faults: FileFaultPoint(StoreInstrumentation.make(label: label, faults: faults, log: log))
        )
    }
}

extension FaultInjectingAsyncFileStore: AsyncFileChangeObserving where Base: AsyncFileChangeObserving {
    /// `base`'s changes in `folder`, which faults do not touch: see `AsyncFileChangeObserving.changes(in:)`.
    ///
    /// - Throws: `FileStoreError.invalidPath(path:reason:)` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        try base.changes(in: folder)
    }
}

extension FaultInjectingAsyncFileStore: TransactionalStore, InterceptingTransactionalStore
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

extension FaultInjectingAsyncFileStore: TransactionalFileStore where Base: TransactionalFileStore {}
