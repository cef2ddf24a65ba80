import ForgeKVStore
import ForgeStorageTesting

/// How a test sees a store: alone, or through the seam, for events or for faults, which must keep every capability of
/// the store they wrap.
enum Seam: String, CaseIterable, Sendable {
    case alone, events, faults

    /// `store`, a store of the asynchronous form with lifetimes, as this seam shows it.
    func showing(_ store: some AsyncKVBackend & AsyncExpiringKVStoring) -> any AsyncExpiringKVStoring {
        switch self {
        case .alone: store
        case .events: store.reportingEvents { _ in }
        case .faults: store.injectingFaults()
        }
    }
}
