internal import ForgeCore
internal import Foundation

/// Where a test's faults (ForgeStorageTesting's `StoreFaults` and `OperationLog`) enter a file store: before each
/// requirement of ``FileBackend``, so that an injected fault reaches every store the same way.
///
/// A fault fails a call as ``DiskFileStore`` fails it: the `FileSystemError` of the disk call, through the store
/// family's one mapping (`FileStoreError(_:operation:path:)`). A point without an instrument lets every call through.
package struct FileFaultPoint: Sendable {
    /// The faults and operation log a test asked for; nil for a plain store.
    let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Before a read of `path`: throws a fault that fails it, and returns true for one that damages what it reads.
    package func read(_ path: StoredFilePath) throws -> Bool {
        guard let fault = instrument?.begin(.read, target: path.string) else { return false }
        if fault.isCorruptData { return true }
        try fault.fail(.open, path.string) { FileStoreError($0, operation: .read, path: path.string) }
        return false
    }

    /// What a read returns when a fault damaged it: the first half of the file, as a torn copy on disk would read.
    package func damaged(_ data: Data?) -> Data? {
        data.map { $0.prefix($0.count / 2) }
    }

    /// Before a write of `path`: throws the fault that fails it.
    package func write(_ path: StoredFilePath) throws {
        try instrument?.begin(.write, target: path.string)?
            .fail(.open, path.string) {
                FileStoreError($0, operation: .write, path: path.string)
            }
    }

    /// Before a removal of `path`: throws the fault that fails it.
    package func remove(_ path: StoredFilePath) throws {
        try instrument?.begin(.delete, target: path.string)?
            .fail(.remove, path.string) {
                FileStoreError($0, operation: .delete, path: path.string)
            }
    }

    /// Before a check that `path` holds a file: whether a fault hides it.
    package func hides(_ path: StoredFilePath) -> Bool {
        instrument?.begin(.exists, target: path.string)?.hidesItems == true
    }

    /// Before a listing of `folder` (nil: a walk of the whole store, for its size): throws the fault that fails it.
    package func list(_ folder: StoredFilePath?) throws {
        let name = folder?.string ?? ""
        try instrument?.begin(.list, target: folder?.string)?
            .fail(.list, name) {
                FileStoreError($0, operation: .list, path: name)
            }
    }

    /// Before a removal of everything: throws the fault that fails it.
    package func removeAll() throws {
        try instrument?.begin(.deleteAll, target: nil)?
            .fail(.remove, "") {
                FileStoreError($0, operation: .deleteAll, path: "")
            }
    }
}

extension FileFaultPoint: StagedWriteInterceptor {
    /// Throws the fault that fails `change` made alone: a transaction's save or delete meets the faults its store's
    /// own does.
    package func willCommit(_ change: StagedWrite.Change) throws {
        switch change {
        case .writeFile(_, let path, _): try write(StoredFilePath(validating: path))
        case .removeFile(let path): try remove(StoredFilePath(validating: path))
        default: break
        }
    }

    /// Nothing: a fault acts before the commit.
    package func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?) {}
}
