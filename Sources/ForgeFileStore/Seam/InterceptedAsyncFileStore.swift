package import ForgeCore
public import Foundation

/// An asynchronous file store (a server's, such as `PostgresFileStore`) seen through the seam.
///
/// ``InterceptedFileStore`` for an ``AsyncFileBackend``. It keeps the wrapped store's transactions and changes.
public struct InterceptedAsyncFileStore<Base: AsyncFileBackend>: Sendable {
    /// The store every call goes to.
    public let base: Base
    /// What each call to `base` passes.
    let interceptor: any StoreCallInterceptor

    /// Wraps `base`, each call passing `interceptor`.
    package init(_ base: Base, interceptor: any StoreCallInterceptor) {
        self.base = base
        self.interceptor = interceptor
    }
}

extension InterceptedAsyncFileStore: AsyncFileStoring, AsyncFileBackend {
    /// The contents of `base`'s file at `path`.
    public nonisolated(nonsending) func contents(at path: StoredFilePath) async throws -> Data? {
        try await interceptor.interceptAsync(.read(path)) { try await base.contents(at: path) }
    }

    /// Writes `data` to `base` at `path`.
    public nonisolated(nonsending) func write(_ data: Data, at path: StoredFilePath, replacing: Bool) async throws {
        try await interceptor.interceptAsync(.write(path.string, bytes: data.count)) {
            try await base.write(data, at: path, replacing: replacing)
        }
    }

    /// Removes `base`'s file at `path`.
    public nonisolated(nonsending) func removeFile(at path: StoredFilePath) async throws -> Bool {
        try await interceptor.interceptAsync(.delete(path.string)) { try await base.removeFile(at: path) }
    }

    /// Whether `base` holds a file at `path`.
    public nonisolated(nonsending) func hasFile(at path: StoredFilePath) async throws -> Bool {
        try await interceptor.interceptAsync(.exists(path.string)) { try await base.hasFile(at: path) }
    }

    /// The size and date of `base`'s file at `path`, as a check that it exists.
    public nonisolated(nonsending) func storedFileInfo(at path: StoredFilePath) async throws -> StoredFileInfo? {
        try await interceptor.interceptAsync(.info(path)) { try await base.storedFileInfo(at: path) }
    }

    /// The names in `base`'s `folder`.
    public nonisolated(nonsending) func entryNames(in folder: StoredFilePath) async throws -> [String] {
        try await interceptor.interceptAsync(.list(folder.string)) { try await base.entryNames(in: folder) }
    }

    /// Removes every file from `base`.
    public nonisolated(nonsending) func removeAll() async throws {
        try await interceptor.interceptAsync(.deleteAll) { try await base.removeAll() }
    }

    /// The size of `base`'s files, as a listing of the whole store.
    public nonisolated(nonsending) func storedSize() async throws -> Int {
        try await interceptor.interceptAsync(.list(nil)) { try await base.storedSize() }
    }

    /// `base`'s files, as a listing of the whole store; found by this store's own calls where the interceptor
    /// asks for them (faults).
    public nonisolated(nonsending) func allFiles() async throws -> [StoredFileInfo] {
        if interceptor.walksTheStoreCallByCall { return try await walkedFiles() }
        return try await interceptor.interceptAsync(.list(nil)) { try await base.allFiles() }
    }
}

extension InterceptedAsyncFileStore: AsyncFileChangeObserving where Base: AsyncFileChangeObserving {
    /// `base`'s changes in `folder`, which pass no interceptor.
    public func changes(in folder: String) throws -> AsyncStream<FileChange> {
        try base.changes(in: folder)
    }
}

extension InterceptedAsyncFileStore: TransactionalStore, InterceptingTransactionalStore
where Base: TransactionalStore {
    /// The wrapped store's runner: a transaction stages this store's saves and deletes on the wrapped store.
    public var transactionRunner: any TransactionRunner { base.transactionRunner }

    /// The wrapped store, to which the runner applies this store's staged changes.
    public var transactionParticipant: any TransactionalStore { base.transactionParticipant }

    /// This store's interceptor, then the wrappers' below.
    package var stagedWriteInterceptors: [any StagedWriteInterceptor] {
        [interceptor] + base.interceptorsOfStagedWrites
    }
}
