package import ForgeCore

/// Where a test's faults enter a file store (see `StoreFaultPoint`): a fault fails a call as ``DiskFileStore`` fails
/// it, with the `FileSystemError` of the disk call through the store family's one mapping
/// (`FileStoreError(_:operation:path:)`).
package struct FileFaultPoint: StoreFaultPoint {
    /// The faults and operation log a test asked for; nil for a plain store.
    package let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Throws what ``DiskFileStore`` throws when its disk call for `operation` on `target` (a path; nil for the whole
    /// store) fails as `fault` says; a fault that damages a read, and any fault on an existence check, fail nothing.
    package func fail(_ operation: StoreOperation, _ target: String?, as fault: StoreFailure) throws {
        let path = target ?? ""
        switch operation {
        case .read where !fault.isCorruptData:
            try fault.fail(.open, path) { FileStoreError($0, operation: .read, path: path) }
        case .write: try fault.fail(.open, path) { FileStoreError($0, operation: .write, path: path) }
        case .delete: try fault.fail(.remove, path) { FileStoreError($0, operation: .delete, path: path) }
        case .list: try fault.fail(.list, path) { FileStoreError($0, operation: .list, path: path) }
        case .deleteAll: try fault.fail(.remove, "") { FileStoreError($0, operation: .deleteAll, path: "") }
        case .read, .exists, .reclaimExpired, .rotateMasterKey: break
        }
    }
}
