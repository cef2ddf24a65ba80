internal import ForgeCore
package import Foundation

/// Where a test's faults (ForgeStorageTesting's `StoreFaults` and `OperationLog`) enter a key-value store: before each
/// requirement of ``KVBackend``, so that an injected fault reaches every store the same way.
///
/// A fault fails a call as ``DiskKVStore`` fails it: the `FileSystemError` of the disk call, through the store family's
/// one mapping (`KVStoreError(_:writing:)` and the others). A point without an instrument lets every call through.
package struct KVFaultPoint: Sendable {
    /// The faults and operation log a test asked for; nil for a plain store.
    let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Before a read of `name`: throws a fault that fails it, and returns true for one that damages what it reads.
    package func read(_ name: String) throws -> Bool {
        guard let fault = instrument?.begin(.read, target: name) else { return false }
        if fault.isCorruptData { return true }
        try fault.fail(.open, name) { KVStoreError($0, reading: name) }
        return false
    }

    /// What a read of `name` returns when a fault damaged it: a value no type decodes, as a damaged file is.
    package func damaged(_ value: KVStoredValue?) -> KVStoredValue? {
        value.map { _ in KVStoredValue(json: Data("the stored data is damaged".utf8)) }
    }

    /// Before a write of `name`: throws the fault that fails it.
    package func write(_ name: String) throws {
        try instrument?.begin(.write, target: name)?.fail(.open, name) { KVStoreError($0, writing: name) }
    }

    /// Before a remove of `name`: throws the fault that fails it.
    package func remove(_ name: String) throws {
        try instrument?.begin(.delete, target: name)?.fail(.remove, name) { KVStoreError($0, removing: name) }
    }

    /// Before a check that `name` holds a value: whether a fault hides it.
    package func hides(_ name: String) -> Bool {
        instrument?.begin(.exists, target: name)?.hidesItems == true
    }

    /// Before a listing: throws the fault that fails it.
    package func list() throws {
        try instrument?.begin(.list, target: nil)?.fail(.list, "") { KVStoreError(listing: $0) }
    }

    /// Before a removal of everything: throws the fault that fails it.
    package func removeAll() throws {
        try instrument?.begin(.deleteAll, target: nil)?.fail(.remove, "") { KVStoreError($0, removing: nil) }
    }
}

extension KVFaultPoint: StagedWriteInterceptor {
    /// Throws the fault that fails `change` made alone: a transaction's write or removal meets the faults its store's
    /// own does.
    package func willCommit(_ change: StagedWrite.Change) throws {
        switch change {
        case .storeValue(_, let name, _): try write(name)
        case .removeValue(let name): try remove(name)
        default: break
        }
    }

    /// Nothing: a fault acts before the commit.
    package func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?) {}
}
