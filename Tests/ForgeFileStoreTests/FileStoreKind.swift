import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Every ``FileStoring`` implementation the package ships, for the behaviour suite to run against.
enum FileStoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case disk

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, empty store of this kind, and removes everything it stored afterwards.
    func withStore(_ body: (any FileStoring) async throws -> Void) async throws {
        try await withSubject { try await body($0.store) }
    }

    /// Runs `body` with a fresh, empty store of this kind as the ``FileBackend`` it is built on, and removes everything
    /// it stored afterwards.
    func withBackend(_ body: (any FileStoring & FileBackend) async throws -> Void) async throws {
        try await withStore { store in
            try await body(
                try #require(store as? any FileStoring & FileBackend, "\(type(of: store)) is no FileBackend")
            )
        }
    }

    /// Runs `body` with a fresh, empty store of this kind, with what the conformance checks may use beside it, and
    /// removes everything it stored afterwards.
    ///
    /// A disk store has both: a second handle is a new `DiskFileStore` on the same folder and namespace, and its
    /// neighbour is another namespace in the same folder. An in-memory store is its own storage, so it has neither.
    func withSubject(_ body: (FileStoringConformance.Subject) async throws -> Void) async throws {
        switch self {
        case .memory:
            try await body(FileStoringConformance.Subject(InMemoryFileStore()))
        case .disk:
            try await withTemporaryFolder { folder in
                try await body(
                    FileStoringConformance.Subject(
                        DiskFileStore(directory: .custom(folder), namespace: "behaviour"),
                        reopen: { DiskFileStore(directory: .custom(folder), namespace: "behaviour") },
                        neighbour: DiskFileStore(directory: .custom(folder), namespace: "neighbour"),
                        foldsCase: Self.foldsCase(folder)
                    )
                )
            }
        }
    }

    /// Whether the volume of `folder` is case-insensitive, so `A.txt` and `a.txt` are one file on it.
    private static func foldsCase(_ folder: URL) -> Bool {
        #if canImport(Darwin)
        let values = try? folder.resourceValues(forKeys: [.volumeSupportsCaseSensitiveNames])
        return values?.volumeSupportsCaseSensitiveNames == false
        #else
        return false  // The volumes the tests run on elsewhere (ext4, tmpfs) are case-sensitive.
        #endif
    }
}
