internal import ForgeCore

extension CryptStoreError {
    /// The case's name, as an event's failure names it.
    var eventCode: String {
        switch self {
        case .wrongMasterKey: "wrongMasterKey"
        case .keyFileNotFound: "keyFileNotFound"
        case .vaultReplaced: "vaultReplaced"
        case .rotationInProgress: "rotationInProgress"
        case .masterKeyRotated: "masterKeyRotated"
        case .tamperedItem: "tamperedItem"
        case .corruptVault: "corruptVault"
        case .insecureKeyFile: "insecureKeyFile"
        case .invalidMasterKey: "invalidMasterKey"
        case .openFailed: "openFailed"
        case .encodingFailed: "encodingFailed"
        case .decodingFailed: "decodingFailed"
        case .readFailed: "readFailed"
        case .writeFailed: "writeFailed"
        case .removeFailed: "removeFailed"
        case .removeAllFailed: "removeAllFailed"
        case .listFailed: "listFailed"
        case .notAccessibleNow: "notAccessibleNow"
        case .missingEntitlement: "missingEntitlement"
        case .unexpectedStatus: "unexpectedStatus"
        }
    }

    /// What a secret store's call threw, as its event tells it: the case and the reason alone, since the error and
    /// its description name the key.
    static func eventFailure(_ error: any Error) -> StoreEvent.Failure {
        guard let error = error as? CryptStoreError else {
            return StoreEvent.Failure(foreign: error, keepsError: false)
        }
        let code = error.eventCode
        return StoreEvent.Failure(
            code: code,
            reason: error.reason,
            error: nil,
            description: error.reason.map { "\(code): \($0)" } ?? code
        )
    }
}

extension StoreEventReporter {
    /// A reporter for a secret store labelled `label`, telling `handler`; its events name no key.
    static func secrets(label: String, handler: @escaping @Sendable (StoreEvent) -> Void) -> StoreEventReporter {
        StoreEventReporter(store: .secrets, label: label, handler: handler, failure: CryptStoreError.eventFailure)
    }
}
