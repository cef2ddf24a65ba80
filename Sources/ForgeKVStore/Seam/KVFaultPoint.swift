package import ForgeCore

/// Where a test's faults enter a key-value store (see `StoreFaultPoint`): a fault fails a call as ``DiskKVStore``
/// fails it, with the `FileSystemError` of the disk call through the store family's one mapping
/// (`KVStoreError(_:writing:)` and the others).
package struct KVFaultPoint: StoreFaultPoint {
    /// The faults and operation log a test asked for; nil for a plain store.
    package let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Throws what ``DiskKVStore`` throws when its disk call for `operation` on `target` fails as `fault` says; a
    /// fault that damages a read, and any fault on an existence check, fail nothing.
    package func fail(_ operation: StoreOperation, _ target: String?, as fault: StoreFailure) throws {
        let name = target ?? ""
        switch operation {
        case .read where !fault.isCorruptData: try fault.fail(.open, name) { KVStoreError($0, reading: name) }
        case .write: try fault.fail(.open, name) { KVStoreError($0, writing: name) }
        case .delete: try fault.fail(.remove, name) { KVStoreError($0, removing: name) }
        case .list: try fault.fail(.list, "") { KVStoreError(listing: $0) }
        case .deleteAll: try fault.fail(.remove, "") { KVStoreError($0, removing: nil) }
        case .read, .exists, .reclaimExpired, .rotateMasterKey: break
        }
    }
}
