package import ForgeCore
internal import Foundation

/// Where a test's faults enter a secret store (see `StoreFaultPoint`).
///
/// A locked device is the Keychain answering `errSecInteractionNotAllowed`, through the Keychain's mapping of
/// statuses; the other faults are the vault's files failing with their `errno`, through the vault's own mapping
/// (`CryptStoreError(_:writing:)` and the like). A test's own error is thrown as it is.
package struct CryptFaultPoint: StoreFaultPoint {
    /// The faults and operation log a test asked for; nil for a plain store.
    package let instrument: (any StoreInstrument)?

    /// A point that asks `instrument` before each call.
    package init(_ instrument: (any StoreInstrument)?) {
        self.instrument = instrument
    }

    /// Throws what the real stores throw when `operation` on the secret `target` (nil for every secret) fails as
    /// `fault` says.
    ///
    /// A fault that damages a read fails nothing here (the read then finds a tampered secret); a check
    /// that a secret exists fails as the Keychain's does (a locked device, a test's own error), is hidden by a denied
    /// permission, and is spared by the other faults. A master-key rotation fails as a write of the whole store does,
    /// and is spared by a damaging fault.
    package func fail(_ operation: StoreOperation, _ target: String?, as fault: StoreFailure) throws {
        switch (operation, fault) {
        case (.read, .corruptData), (.exists, .permissionDenied), (.exists, .outOfSpace), (.exists, .corruptData),
            (.rotateMasterKey, .corruptData), (.reclaimExpired, _):
            return
        case (_, .deviceLocked):
            throw KeychainStatus.error(for: KeychainStatus.interactionNotAllowed, key: target)
        default:
            break
        }
        let name = target ?? ""
        switch operation {
        case .read: try fault.fail(.open, name) { CryptStoreError($0, reading: name) }
        case .exists: try fault.fail(.stat, name) { CryptStoreError($0, reading: name) }
        case .write: try fault.fail(.open, name) { CryptStoreError($0, writing: name) }
        case .delete: try fault.fail(.remove, name) { CryptStoreError($0, removing: name) }
        case .list: try fault.fail(.list, "") { CryptStoreError(listing: $0) }
        case .deleteAll: try fault.fail(.list, "") { CryptStoreError($0, removing: nil) }
        // The vault's rotation writes each secret sealed again, then its header: a failed write of either throws
        // this, naming no key, as a secret store's errors of the whole store do.
        case .rotateMasterKey: try fault.fail(.write, "") { CryptStoreError($0, writing: "") }
        case .reclaimExpired: break
        }
    }
}

extension StoreCall where Result == Data? {
    /// A read of the secret under `name`, which a damaging fault makes fail authentication.
    ///
    /// A stored secret then throws ``CryptStoreError/tamperedItem(key:)``, as in the vault. Its size is not counted: a secret's length says
    /// something of it.
    package static func readSecret(_ name: String) -> Self {
        StoreCall(
            .read,
            name,
            whenDamaged: { secret in
                if secret != nil { throw CryptStoreError.tamperedItem(key: name) }
                return nil
            }
        )
    }
}
