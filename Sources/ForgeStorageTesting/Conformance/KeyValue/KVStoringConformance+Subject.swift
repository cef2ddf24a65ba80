public import ForgeKVStore

extension KVStoringConformance {
    /// The store a check runs against, with a second handle and a neighbour where it has them (see ``StoreSubject``).
    public typealias Subject = StoreSubject<any KVStoring>
}
