import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Testing

/// How a suite sees a PostgreSQL store: alone, or through the seam for events or for faults (that never fire, while
/// every call asks for one), so that a wrapper is shown to keep every behaviour of the store it wraps.
enum Seam: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case alone, events, faults

    var testDescription: String { rawValue }

    /// Faults at a key no check uses: every call asks, none fails.
    private static func unusedFaults() -> StoreFaults {
        StoreFaults([.always(.all, at: "never.used", with: .outOfSpace)])
    }

    /// `store` as this seam shows it.
    func settings(_ store: some AsyncExpiringKVStoring & AsyncKVBackend) -> any AsyncExpiringKVStoring {
        switch self {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults(Self.unusedFaults())
        }
    }

    /// `store` as this seam shows it.
    func files(_ store: some AsyncFileStoring & AsyncFileBackend) -> any AsyncFileStoring {
        switch self {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults(Self.unusedFaults())
        }
    }

    /// `store` as this seam shows it.
    func secrets(_ store: some AsyncCryptStoring & AsyncCryptBackend) -> any AsyncCryptStoring {
        switch self {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults(Self.unusedFaults())
        }
    }
}
