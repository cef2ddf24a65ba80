import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Every ``FileStoring`` implementation the package ships, for the behaviour suite to run against: each alone, and seen
/// through the seam for events and for faults (that never fire, while every call asks for one), so that a wrapper is
/// shown to keep every behaviour of the store it wraps.
enum FileStoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case disk
    case memoryWithEvents
    case diskWithEvents
    case memoryWithFaults
    case diskWithFaults

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

    /// `store` as this kind sees it: alone, or through the seam for events or for faults.
    private func seen(_ store: some FileBackend & FileStoring) -> any FileStoring {
        switch self {
        case .memoryWithEvents, .diskWithEvents: store.reportingEvents { _ in }
        case .memoryWithFaults, .diskWithFaults:
            store.injectingFaults(StoreFaults([.always(.all, at: "never/used", with: .outOfSpace)]))
        case .memory, .disk: store
        }
    }

    /// `store` as this kind sees it, which tells its changes: alone, or through the seam for events or for faults.
    func seenObserving(_ store: some FileBackend & FileChangeObserving) -> any FileChangeObserving {
        switch self {
        case .memoryWithEvents, .diskWithEvents: store.reportingEvents { _ in }
        case .memoryWithFaults, .diskWithFaults:
            store.injectingFaults(StoreFaults([.always(.all, at: "never/used", with: .outOfSpace)]))
        case .memory, .disk: store
        }
    }

    /// Runs `body` with a fresh, empty store of this kind, with what the conformance checks may use beside it, and
    /// removes everything it stored afterwards.
    ///
    /// A disk store has both: a second handle is a new `DiskFileStore` on the same folder and namespace, and its
    /// neighbour is another namespace in the same folder. An in-memory store is its own storage, so it has neither.
    func withSubject(_ body: (FileStoringConformance.Subject) async throws -> Void) async throws {
        switch self {
        case .memory, .memoryWithEvents, .memoryWithFaults:
            try await body(FileStoringConformance.Subject(seen(InMemoryFileStore())))
        case .disk, .diskWithEvents, .diskWithFaults:
            try await withTemporaryFolder { folder in
                try await body(
                    FileStoringConformance.Subject(
                        seen(DiskFileStore(directory: .custom(folder), namespace: "behaviour")),
                        reopen: { seen(DiskFileStore(directory: .custom(folder), namespace: "behaviour")) },
                        neighbour: seen(DiskFileStore(directory: .custom(folder), namespace: "neighbour")),
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
