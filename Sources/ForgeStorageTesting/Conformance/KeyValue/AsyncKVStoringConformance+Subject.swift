public import ForgeKVStore

extension KVStoringConformance.Subject {
    /// The same subject seen through `AsyncKVStoring`, every call made through the synchronous methods, for the
    /// checks ``AsyncKVStoringConformance`` defines.
    var asynchronous: AsyncKVStoringConformance.Subject {
        let reopen = self.reopen
        return AsyncKVStoringConformance.Subject(
            SynchronousKVStore(store),
            reopen: reopen.map { open in { @Sendable in SynchronousKVStore(try await open()) } },
            neighbour: neighbour.map { SynchronousKVStore($0) }
        )
    }
}

extension AsyncKVStoringConformance {
    /// The store a check runs against, with a second handle and a neighbour where it has them (see ``StoreSubject``).
    public typealias Subject = StoreSubject<any AsyncKVStoring>
}
