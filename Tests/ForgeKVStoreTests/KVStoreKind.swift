import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Every ``KVStoring`` implementation the package ships, for the behaviour suite to run against: each store alone,
/// and the stores built on ``KVBackend`` seen through the seam, for events and for faults (that never fire, while
/// every call asks for one), so that a wrapper is shown to keep every behaviour of the store it wraps.
enum KVStoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case disk
    case defaults
    case reactiveOverMemory
    case reactiveOverDisk
    case memoryWithEvents
    case diskWithEvents
    case defaultsWithEvents
    case memoryWithFaults
    case diskWithFaults
    case defaultsWithFaults

    var testDescription: String { rawValue }

    /// Whether the store refuses keys that begin with U+FEFF: `UserDefaults` on Linux, whose property list drops
    /// that character from keys.
    var refusesKeysWithALeadingByteOrderMark: Bool {
        #if canImport(Darwin)
        false
        #else
        [.defaults, .defaultsWithEvents, .defaultsWithFaults].contains(self)
        #endif
    }

    /// Runs `body` with a fresh, empty store of this kind, and removes everything it stored afterwards.
    func withStore(_ body: (any KVStoring) async throws -> Void) async throws {
        try await withSubject { subject in try await body(subject.store) }
    }

    /// `store` as this kind sees it: alone, or through the seam for events or for faults.
    private func seen(_ store: some KVBackend & KVStoring) -> any KVStoring {
        switch self {
        case .memoryWithEvents, .diskWithEvents, .defaultsWithEvents: store.reportingEvents { _ in }
        case .memoryWithFaults, .diskWithFaults, .defaultsWithFaults:
            store.injectingFaults(StoreFaults([.always(.all, at: "never.used", with: .outOfSpace)]))
        case .memory, .disk, .defaults, .reactiveOverMemory, .reactiveOverDisk: store
        }
    }

    /// Runs `body` with a fresh, empty store of this kind, with a second handle and a neighbour where the store has
    /// them, and removes everything they stored afterwards.
    ///
    /// A disk store reopens as a new `DiskKVStore` on the same folder and namespace, and its neighbour is another
    /// namespace in the same folder; a `UserDefaults` store reopens as a new store on the same suite, and its
    /// neighbour is another suite. A reactive store wraps each, and so does the seam. An in-memory store has neither.
    func withSubject(_ body: (KVStoringConformance.Subject) async throws -> Void) async throws {
        switch self {
        case .memory, .memoryWithEvents, .memoryWithFaults:
            try await body(KVStoringConformance.Subject(seen(InMemoryKVStore())))
        case .reactiveOverMemory:
            try await body(KVStoringConformance.Subject(ReactiveKVStore(InMemoryKVStore())))
        case .disk, .reactiveOverDisk, .diskWithEvents, .diskWithFaults:
            try await withTemporaryFolder { folder in
                @Sendable func open(_ namespace: String) -> any KVStoring {
                    let disk = DiskKVStore(directory: .custom(folder), namespace: namespace)
                    return self == .reactiveOverDisk ? ReactiveKVStore(disk) : seen(disk)
                }
                try await body(
                    KVStoringConformance.Subject(
                        open("behaviour"),
                        reopen: { open("behaviour") },
                        neighbour: open("neighbour")
                    )
                )
            }
        case .defaults, .defaultsWithEvents, .defaultsWithFaults:
            let suite = "forge.tests.\(UUID().uuidString)"
            let neighbourSuite = suite + ".neighbour"
            defer {
                for name in [suite, neighbourSuite] {
                    UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
                }
            }
            try await body(
                KVStoringConformance.Subject(
                    seen(UserDefaultsKVStore(suiteName: suite)),
                    reopen: { seen(UserDefaultsKVStore(suiteName: suite)) },
                    neighbour: seen(UserDefaultsKVStore(suiteName: neighbourSuite))
                )
            )
        }
    }
}
