internal import ForgeCore
internal import Foundation

extension FileStoreError {
    /// The case's name, as an event's failure names it.
    var eventCode: String {
        switch self {
        case .notFound: "notFound"
        case .alreadyExists: "alreadyExists"
        case .invalidPath: "invalidPath"
        case .readFailed: "readFailed"
        case .writeFailed: "writeFailed"
        case .deleteFailed: "deleteFailed"
        case .listFailed: "listFailed"
        case .encodingFailed: "encodingFailed"
        case .decodingFailed: "decodingFailed"
        }
    }

    /// The size of what a read returned; nil when it found no file.
    static func byteCount(_ contents: Data?) -> Int? {
        contents?.count
    }

    /// What a file store's call threw, as its event tells it: the error kept, with its case and reason.
    static func eventFailure(_ error: any Error) -> StoreEvent.Failure {
        guard let error = error as? FileStoreError else { return StoreEvent.Failure(foreign: error, keepsError: true) }
        return StoreEvent.Failure(
            code: error.eventCode,
            reason: error.reason,
            error: error,
            description: error.description
        )
    }
}

extension StoreEventReporter {
    /// A reporter for a file store labelled `label`, naming paths as `keyNames` says, telling `handler`.
    static func files(
        label: String,
        keyNames: StoreEvent.KeyNames,
        handler: @escaping @Sendable (StoreEvent) -> Void
    ) -> StoreEventReporter {
        StoreEventReporter(
            store: .files,
            label: label,
            keyNames: keyNames,
            handler: handler,
            failure: FileStoreError.eventFailure
        )
    }
}
