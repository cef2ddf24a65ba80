import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// The disk store keeps lifetimes as every store does: the expiry suite on it, with a second instance on its folder
/// and a `ReactiveKVStore`'s streams over it, each check in a fresh folder; alone, and seen through the seam for
/// events and for faults, which keep lifetimes.
struct DiskKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks, Seam.allCases)
    func expiresLikeEveryStore(_ check: ExpiryConformance.Check, seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "expiry", expiry: KVExpiry(clock: clock))
            let other = DiskKVStore(directory: .custom(folder), namespace: "expiry", expiry: KVExpiry(clock: clock))
            switch seam {
            case .alone: try await check.run(on: Self.subject(store, clock: clock, other: other))
            case .events:
                try await check.run(on: Self.subject(store.reportingEvents { _ in }, clock: clock, other: other))
            case .faults: try await check.run(on: Self.subject(store.injectingFaults(), clock: clock, other: other))
            }
        }
    }

    /// The subject of `store`, its streams those of a `ReactiveKVStore` over it.
    private static func subject(
        _ store: some ExpiringKVStoring & KVBackend,
        clock: ManualExpiryClock,
        other: DiskKVStore
    ) -> ExpiryConformance.Subject {
        let reactive = ReactiveKVStore(store)
        return .init(synchronous: store, clock: clock, otherInstance: other, stream: { reactive.stream($0) })
    }
}
