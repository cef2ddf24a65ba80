public import ForgeKVStore

extension ExpiryConformance {
    /// A fresh, empty store that keeps lifetimes, the manual clock it was given, and what else the checks may use.
    public struct Subject: Sendable {
        /// The store, seen through its asynchronous form (a synchronous store's calls are made as they are).
        public let store: any AsyncExpiringKVStoring
        /// The clock the store was given (`KVExpiry(clock:)`); the checks move it.
        public let clock: ManualExpiryClock
        /// A second instance on the same storage, given the same clock; nil when the store has none.
        public let otherInstance: (any AsyncExpiringKVStoring)?
        /// Makes a stream of a key's value over the store (its own, or a `ReactiveKVStore` over it); nil when it has
        /// none.
        public let stream: (@Sendable (KVKey<String>) -> AsyncStream<String?>)?
        /// The store, when it takes part in transactions; found by the initializers.
        let transactional: (any TransactionalKVStore & AsyncExpiringKVStoring)?

        /// The subject of an asynchronous store.
        public init(
            store: some AsyncExpiringKVStoring,
            clock: ManualExpiryClock,
            otherInstance: (any AsyncExpiringKVStoring)? = nil,
            stream: (@Sendable (KVKey<String>) -> AsyncStream<String?>)? = nil
        ) {
            self.store = store
            self.clock = clock
            self.otherInstance = otherInstance
            self.stream = stream
            self.transactional = store as? any TransactionalKVStore & AsyncExpiringKVStoring
        }

        /// The subject of a synchronous store, called through its synchronous methods.
        public init(
            synchronous store: some ExpiringKVStoring,
            clock: ManualExpiryClock,
            otherInstance: (any ExpiringKVStoring)? = nil,
            stream: (@Sendable (KVKey<String>) -> AsyncStream<String?>)? = nil
        ) {
            self.store = SynchronousKVStore(store)
            self.clock = clock
            self.otherInstance = otherInstance.map { SynchronousKVStore($0) }
            self.stream = stream
            self.transactional = store as? any TransactionalKVStore & AsyncExpiringKVStoring
        }
    }
}
