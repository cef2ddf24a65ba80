public import Foundation
internal import ForgeCore

/// A file store that tells a handler what it does, and otherwise is the store it wraps: each call to its storage (how
/// long it took, the bytes it read or wrote, how it ended), as `StoreEvent`s naming the file's path.
///
/// Make one with `reportingEvents(label:to:)`, on any store built on ``FileBackend``:
///
/// ```swift
/// let documents = DiskFileStore(namespace: "documents").reportingEvents(label: "documents") { event in
///     print(event.operation, event.target ?? "", event.kind)
/// }
/// try await documents.save(Data("hello".utf8), to: "notes/today.txt")   // reports a write of 5 bytes
/// ```
///
/// It is a ``FileBackend`` over the wrapped store's, so every requirement of ``FileStoring`` and ``AsyncFileStoring``
/// comes with it, and it passes the conformance suites as the wrapped store does; its calls run where the wrapped
/// store's run (on the caller's executor for a small file of ``DiskFileStore``). A path the typed API refuses before
/// any call (`invalidPath`) is not reported, nor is `notFound`, which the typed API throws for a call that found
/// nothing. It observes the wrapped store's changes (``FileChangeObserving``) when that store has them.
public struct EventReportingFileStore<Base: FileBackend>: Sendable {
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

extension EventReportingFileStore: FileStoring, FileBackend {
    /// `base`'s file at `path`, reported as a read.
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        try await reporter.callAsync(.read, path.string, reading: FileStoreError.byteCount) {
            try await base.contents(at: path)
        }
    }

    /// Writes `data` to `base`, reported as a write.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try await reporter.callAsync(.write, path.string, writing: data.count) {
            try await base.write(data, at: path, replacing: replacing)
        }
    }

    /// Removes `path` from `base`, reported as a remove.
    public nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        try await reporter.callAsync(.delete, path.string) { try await base.removeFile(at: path) }
    }

    /// Whether `base` holds a file at `path`, reported as a check that it exists.
    public func hasFile(at path: StoredFilePath) -> Bool {
        reporter.call(.exists, path.string) { base.hasFile(at: path) }
    }

    /// `base`'s size and date of the file at `path`, reported as a check that it exists.
    public func storedFileInfo(at path: StoredFilePath) throws -> StoredFileInfo? {
        try reporter.call(.exists, path.string) { try base.storedFileInfo(at: path) }
    }

    /// `base`'s names in `folder`, reported as a listing of the folder.
    public nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try await reporter.callAsync(.list, folder.string) { try await base.entryNames(in: folder) }
    }

    /// Removes everything from `base`, reported as a removal of everything.
    public nonisolated(nonsending) func removeAll() async throws {
        try await reporter.callAsync(.deleteAll, nil) { try await base.removeAll() }
    }

    /// `base`'s total size, reported as a listing of the whole store.
    public nonisolated(nonsending) func storedSize() async throws -> Int {
        try await reporter.callAsync(.list, nil) { try await base.storedSize() }
    }

    /// `base`'s files, as `base` finds them, reported as one listing of the whole store.
    public nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo] {
        try await reporter.callAsync(.list, nil) { try await base.allFiles() }
    }
}

extension EventReportingFileStore: AsyncFileStoring {}

extension EventReportingFileStore: FileChangeObserving, AsyncFileChangeObserving where Base: FileChangeObserving {
    /// `base`'s changes in `folder`, which are not reported: see `FileChangeObserving.changes(in:)`.
    ///
    /// - Throws: `FileStoreError.invalidPath(path:reason:)` when `folder` is not a valid folder path.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        try base.changes(in: folder)
    }
}

extension FileBackend {
    /// This store, telling `handler` of each call it makes to its storage.
    ///
    /// See ``EventReportingFileStore``.
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
    ) -> EventReportingFileStore<Self> {
        EventReportingFileStore(self, label: label, keyNames: keyNames, handler: handler)
    }
}

extension EventReportingFileStore: TransactionalStore, InterceptingTransactionalStore
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

extension EventReportingFileStore: TransactionalFileStore where Base: TransactionalFileStore {}
