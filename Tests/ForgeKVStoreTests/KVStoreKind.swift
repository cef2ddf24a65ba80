import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// Every ``KVStoring`` implementation the package ships, for the behaviour suite to run against.
enum KVStoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case disk
    case defaults
    case reactiveOverMemory
    case reactiveOverDisk

    var testDescription: String { rawValue }

    /// Whether the store refuses keys that begin with U+FEFF: `UserDefaults` on Linux, whose property list drops
    /// that character from keys.
    var refusesKeysWithALeadingByteOrderMark: Bool {
        #if canImport(Darwin)
        false
        #else
        self == .defaults
        #endif
    }

    /// Runs `body` with a fresh, empty store of this kind, and removes everything it stored afterwards.
    func withStore(_ body: (any KVStoring) async throws -> Void) async throws {
        try await withSubject { subject in try await body(subject.store) }
    }

    /// Runs `body` with a fresh, empty store of this kind, with a second handle and a neighbour where the store has
    /// them, and removes everything they stored afterwards.
    ///
    /// A disk store reopens as a new `DiskKVStore` on the same folder and namespace, and its neighbour is another
    /// namespace in the same folder; a `UserDefaults` store reopens as a new store on the same suite, and its
    /// neighbour is another suite. A reactive store wraps each. An in-memory store has neither.
    func withSubject(_ body: (KVStoringConformance.Subject) async throws -> Void) async throws {
        switch self {
        case .memory:
            try await body(KVStoringConformance.Subject(InMemoryKVStore()))
        case .reactiveOverMemory:
            try await body(KVStoringConformance.Subject(ReactiveKVStore(InMemoryKVStore())))
        case .disk, .reactiveOverDisk:
            let isReactive = self == .reactiveOverDisk
            try await withTemporaryFolder { folder in
                @Sendable func open(_ namespace: String) -> any KVStoring {
                    let disk = DiskKVStore(directory: .custom(folder), namespace: namespace)
                    return isReactive ? ReactiveKVStore(disk) : disk
                }
                try await body(
                    KVStoringConformance.Subject(
                        open("behaviour"),
                        reopen: { open("behaviour") },
                        neighbour: open("neighbour")
                    )
                )
            }
        case .defaults:
            let suite = "forge.tests.\(UUID().uuidString)"
            let neighbourSuite = suite + ".neighbour"
            defer {
                for name in [suite, neighbourSuite] {
                    UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
                }
            }
            try await body(
                KVStoringConformance.Subject(
                    UserDefaultsKVStore(suiteName: suite),
                    reopen: { UserDefaultsKVStore(suiteName: suite) },
                    neighbour: UserDefaultsKVStore(suiteName: neighbourSuite)
                )
            )
        }
    }
}
