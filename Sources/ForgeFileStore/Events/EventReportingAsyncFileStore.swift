public import Foundation
internal import ForgeCore

/// An asynchronous file store (a server's, such as `PostgresFileStore`) that tells a handler what it does, and
/// otherwise is the store it wraps: ``EventReportingFileStore`` for ``AsyncFileBackend``.
///
/// Each call to the server is one event; the handler runs in the caller's task when the call returns, so a tracing
/// span made from the event finds the caller's context. It observes the wrapped store's changes
/// (``AsyncFileChangeObserving``) when that store has them.
public struct EventReportingAsyncFileStore<Base: AsyncFileBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// Where the events go.
    let reporter: StoreEventReporter

    /// Wraps `base`, reporting to `handler` as the store `label`, naming keys and paths as `keyNames` says.
    init(
        _ base: Base,
        label: String,
        keyNames: StoreEvent.KeyNames,
        handler: @escaping @Sendable (StoreEvent) -> Void
    ) {
        self.base = base
        self.reporter = .files(label: label, keyNames: keyNames, handler: handler)
    }
}

extension EventReportingAsyncFileStore: AsyncFileStoring, AsyncFileBackend {
    /// `base`'s file at `path`, reported as a read.
    public func contents(at path: StoredFilePath) async throws -> Data? {
        try await reporter.callAsync(.read, path.string, reading: FileStoreError.byteCount) {
            try await base.contents(at: path)
        }
    }

    /// Writes `data` to `base`, reported as a write.
    public func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try await reporter.callAsync(.write, path.string, writing: data.count) {
            try await base.write(data, at: path, replacing: replacing)
        }
    }

    /// Removes `path` from `base`, reported as a remove.
    public func removeFile(at path: StoredFilePath) async throws -> Bool {
        try await reporter.callAsync(.delete, path.string) { try await base.removeFile(at: path) }
    }

    /// Whether `base` holds a file at `path`, reported as a check that it exists.
    public func hasFile(at path: StoredFilePath) async throws -> Bool {
        try await reporter.callAsync(.exists, path.string) { try await base.hasFile(at: path) }
    }

    /// `base`'s size and date of the file at `path`, reported as a check that it exists.
    public func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? {
        try await reporter.callAsync(.exists, path.string) { try await base.storedFileInfo(at: path) }
    }

    /// `base`'s names in `folder`, reported as a listing of the folder.
    public func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try await reporter.callAsync(.list, folder.string) { try await base.entryNames(in: folder) }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public func removeAll() async throws {
        try await reporter.callAsync(.deleteAll, nil) { try await base.removeAll() }
    }

    /// `base`'s total size, reported as a listing of the whole store.
    public func storedSize() async throws -> Int {
        try await reporter.callAsync(.list, nil) { try await base.storedSize() }
    }

    /// `base`'s files, as `base` finds them (`PostgresFileStore` in one statement), reported as one listing.
    public func allFiles() async throws -> [StoredFileInfo] {
        try await reporter.callAsync(.list, nil) { try await base.allFiles() }
    }
}

extension EventReportingAsyncFileStore: AsyncFileChangeObserving where Base: AsyncFileChangeObserving {
    /// `base`'s changes in `folder`, which are not reported: see `AsyncFileChangeObserving.changes(in:)`.
    ///
    /// - Throws: `FileStoreError.invalidPath(path:reason:)` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        try base.changes(in: folder)
    }
}

extension AsyncFileBackend {
    /// This store, telling `handler` of each call it makes to its storage.
    ///
    /// See ``EventReportingAsyncFileStore``.
    ///
    /// - Parameters:
    ///   - label: The name the events give the store, to tell it from the app's other stores.
    ///   - keyNames: How the events name keys and paths: in the clear (the default), by a keyed hash, or not at all;
    ///     give `.hashed` or `.omitted` when a key or path may be a secret. See `StoreEvent.KeyNames`.
    ///   - handler: Called with each event, synchronously, in the caller's task, at the end of each call.
    /// - Returns: The store, wrapped.
    public func reportingEvents(
        label: String = "files",
        keyNames: StoreEvent.KeyNames = .clear,
        to handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> EventReportingAsyncFileStore<Self> {
        EventReportingAsyncFileStore(self, label: label, keyNames: keyNames, handler: handler)
    }
}

extension EventReportingAsyncFileStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalFileStore {
    /// The wrapped store's runner: a transaction stages this store's writes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged writes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// The events' reporter, then the wrappers below: a transaction's writes are reported as the same writes made
    /// alone, timed as the commit that applied them.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [reporter] + base.interceptorsOfStagedWrites
    }
}

extension EventReportingAsyncFileStore: TransactionalFileStore where Base: TransactionalFileStore {}
