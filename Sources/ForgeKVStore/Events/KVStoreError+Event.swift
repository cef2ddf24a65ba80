internal import ForgeCore

extension KVStoreError {
    /// The case's name, as an event's failure names it.
    var eventCode: String {
        switch self {
        case .encodingFailed: "encodingFailed"
        case .decodingFailed: "decodingFailed"
        case .readFailed: "readFailed"
        case .listFailed: "listFailed"
        case .writeFailed: "writeFailed"
        case .removeFailed: "removeFailed"
        case .removeAllFailed: "removeAllFailed"
        case .flushFailed: "flushFailed"
        }
    }

    /// What a key-value store's call threw, as its event tells it: the error kept, with its case and reason.
    static func eventFailure(_ error: any Error) -> StoreEvent.Failure {
        guard let error = error as? KVStoreError else { return StoreEvent.Failure(foreign: error, keepsError: true) }
        return StoreEvent.Failure(
            code: error.eventCode,
            reason: error.reason,
            error: error,
            description: error.description
        )
    }
}
