import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Every ``KVStoring`` implementation the package ships, for the behaviour suite to run against.
enum KVBackend: String, CaseIterable, CustomTestStringConvertible {
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
        switch self {
        case .memory:
            try await body(InMemoryKVStore())
        case .reactiveOverMemory:
            try await body(ReactiveKVStore(InMemoryKVStore()))
        case .disk, .reactiveOverDisk:
            try await withTemporaryFolder { folder in
                let disk = DiskKVStore(directory: .custom(folder), namespace: "behaviour")
                try await body(self == .disk ? disk : ReactiveKVStore(disk))
            }
        case .defaults:
            let suite = "forge.tests.\(UUID().uuidString)"
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            try await body(UserDefaultsKVStore(suiteName: suite))
        }
    }
}
