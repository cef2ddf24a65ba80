import ForgeFileStore
import ForgeTestSupport
import Foundation
import Testing

/// Every ``FileStoring`` implementation the package ships, for the behaviour suite to run against.
enum FileBackend: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case disk

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty store of this kind, and removes everything it stored afterwards.
    func withStore(_ body: (any FileStoring) async throws -> Void) async throws {
        switch self {
        case .memory:
            try await body(InMemoryFileStore())
        case .disk:
            try await withTemporaryFolder { folder in
                try await body(DiskFileStore(directory: .custom(folder), namespace: "behaviour"))
            }
        }
    }
}
