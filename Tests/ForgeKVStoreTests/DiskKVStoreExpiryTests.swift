import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Testing

/// The disk store keeps lifetimes as every store does: the expiry suite on it, with a second instance on its folder
/// and a `ReactiveKVStore`'s streams over it, each check in a fresh folder.
struct DiskKVStoreExpiryTests {
    @Test(arguments: ExpiryConformance.checks)
    func expiresLikeEveryStore(_ check: ExpiryConformance.Check) async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "expiry", expiry: KVExpiry(clock: clock))
            let other = DiskKVStore(directory: .custom(folder), namespace: "expiry", expiry: KVExpiry(clock: clock))
            let reactive = ReactiveKVStore(store)
            try await check.run(
                on: .init(synchronous: store, clock: clock, otherInstance: other, stream: { reactive.stream($0) })
            )
        }
    }
}
