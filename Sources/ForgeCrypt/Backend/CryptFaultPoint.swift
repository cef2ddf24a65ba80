internal import ForgeCore
package import Foundation

/// Where a test's faults (ForgeStorageTesting's `StoreFaults` and `OperationLog`) enter a secret store: before each
/// requirement of ``CryptBackend``, so that an injected fault reaches every store the same way.
///
/// A locked device is the Keychain answering `errSecInteractionNotAllowed`, through the Keychain's mapping of
/// statuses; the other faults are the vault's files failing with their `errno`, through the vault's own mapping
/// (`CryptStoreError(_:writing:)` and the like). A test's own error is thrown as it is. A point without an instrument
/// lets every call through.
package struct CryptFaultPoint: Sendable {
    /// The faults and operation log a test asked for; nil for a plain store.
    let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Throws what the real stores throw when `call` on `name` (nil for every name) fails as `fault` says.
    private func fail(
        _ fault: StoreFailure?,
        _ call: FileSystemError.Operation,
        _ name: String?,
        mappedBy mapping: (FileSystemError) -> CryptStoreError
    ) throws {
        guard let fault else { return }
        if case .deviceLocked = fault {
            throw KeychainStatus.error(for: KeychainStatus.interactionNotAllowed, key: name)
        }
        try fault.fail(call, name ?? "", mappedBy: mapping)
    }

    /// Before a read of `name`: throws a fault that fails it, and returns true for one that damages what it reads
    /// (a stored secret then fails authentication, ``CryptStoreError/tamperedItem(key:)``, as in the vault).
    package func read(_ name: String) throws -> Bool {
        let fault = instrument?.begin(.read, target: name)
        if fault?.isCorruptData == true { return true }
        try fail(fault, .open, name) { CryptStoreError($0, reading: name) }
        return false
    }

    /// Before a write of `name`: throws the fault that fails it.
    package func write(_ name: String) throws {
        try fail(instrument?.begin(.write, target: name), .open, name) { CryptStoreError($0, writing: name) }
    }

    /// Before a removal of `name`: throws the fault that fails it.
    package func remove(_ name: String) throws {
        try fail(instrument?.begin(.delete, target: name), .remove, name) { CryptStoreError($0, removing: name) }
    }

    /// Before a check that `name` holds a secret: throws what the Keychain throws (a locked device, a test's own
    /// error), and returns true when a fault hides the secret (a vault file that may not be looked at).
    package func hides(_ name: String) throws -> Bool {
        guard let fault = instrument?.begin(.exists, target: name) else { return false }
        switch fault {
        case .deviceLocked, .error: try fail(fault, .stat, name) { CryptStoreError($0, reading: name) }
        case .permissionDenied: return true
        case .outOfSpace, .corruptData: break
        }
        return false
    }

    /// Before a listing: throws the fault that fails it.
    package func list() throws {
        try fail(instrument?.begin(.list, target: nil), .list, nil) { CryptStoreError(listing: $0) }
    }

    /// Before a removal of everything: throws the fault that fails it.
    package func removeAll() throws {
        try fail(instrument?.begin(.deleteAll, target: nil), .list, nil) { CryptStoreError($0, removing: nil) }
    }
}

extension CryptFaultPoint: StagedWriteInterceptor {
    /// Throws the fault that fails `change` made alone: a transaction's write or removal of a secret meets the faults
    /// its store's own does.
    package func willCommit(_ change: StagedWrite.Change) throws {
        switch change {
        case .storeSecret(_, let name): try write(name)
        case .removeSecret(let name): try remove(name)
        default: break
        }
    }

    /// Nothing: a fault acts before the commit.
    package func didCommit(_ change: StagedWrite.Change, start: Date, duration: Duration, error: (any Error)?) {}
}
