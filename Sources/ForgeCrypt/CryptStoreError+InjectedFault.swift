internal import ForgeCore

extension CryptStoreError {
    /// The operations of a secret store a fault can fail.
    enum InjectedOperation {
        case read, write, delete, deleteAll
    }

    /// The error the real stores throw when `operation` on `key` (nil for every key) fails as `fault` says, or
    /// the test's own error.
    ///
    /// A locked device is the Keychain's ``notAccessibleNow(key:)``; a full disk, a denied permission and
    /// damaged bytes are what ``EncryptedFileCrypt`` reports for its files. (A read of damaged bytes is
    /// ``tamperedItem(key:)``, which the store throws itself once it knows an item is stored.)
    static func injected(_ fault: InjectedFault, _ operation: InjectedOperation, key: String?) -> any Error {
        switch fault {
        case .error(let error):
            return error
        case .deviceLocked:
            return CryptStoreError.notAccessibleNow(key: key)
        case .outOfSpace, .permissionDenied, .corruptData:
            let name = key ?? ""
            switch operation {
            case .read:
                return CryptStoreError.readFailed(
                    key: name,
                    underlying: fault.systemError(.open, path: name).description
                )
            case .write:
                return CryptStoreError.writeFailed(
                    key: name,
                    underlying: fault.systemError(.open, path: name).description
                )
            case .delete:
                return CryptStoreError.removeFailed(
                    key: name,
                    underlying: fault.systemError(.remove, path: name).description
                )
            case .deleteAll:
                return CryptStoreError.removeAllFailed(underlying: fault.systemError(.list, path: "").description)
            }
        }
    }

    /// The error an existence check throws under `fault`, or nil when it answers (see
    /// ``InjectedFault/hidesItems``): the Keychain cannot tell while the device is locked.
    static func injected(existence fault: InjectedFault, key: String) -> (any Error)? {
        switch fault {
        case .error(let error): error
        case .deviceLocked: CryptStoreError.notAccessibleNow(key: key)
        case .outOfSpace, .permissionDenied, .corruptData: nil
        }
    }
}
