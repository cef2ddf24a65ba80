import ForgeKVStore
import ForgeStorageTesting

/// The reference store, and each mutant of it, as an `AsyncKVStoring`: its synchronous methods meet the asynchronous
/// requirements, as the package's own stores do, so `AsyncKVStoringConformance` runs against it too.
extension ReferenceKVStore: AsyncKVStoring {
    /// The subject `AsyncKVStoringConformance` runs against: this store, its second handle and its neighbour.
    func asyncSubject() -> AsyncKVStoringConformance.Subject {
        AsyncKVStoringConformance.Subject(self, reopen: { self.reopened() }, neighbour: neighbour())
    }
}
