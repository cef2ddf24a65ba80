public import ForgeKVStore

extension AsyncKVStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    ///
    /// The store alone runs every check but those that need a second handle or a neighbour, which are skipped
    /// (and reported as such) when the subject has none: give `reopen` for a store that other instances or
    /// processes can open on the same storage (a database, a folder), and `neighbour` for one that shares its
    /// backing with other stores (another namespace in the same table).
    ///
    /// ```swift
    /// try await check.run(
    ///     on: AsyncKVStoringConformance.Subject(
    ///         MyNetworkKVStore(client, namespace: "store"),
    ///         reopen: { MyNetworkKVStore(try await Client.connect(), namespace: "store") },
    ///         neighbour: MyNetworkKVStore(client, namespace: "neighbour")
    ///     )
    /// )
    /// ```
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any AsyncKVStoring
        /// Opens another handle on the same storage as ``store``, or nil when the store has no such handles.
        public let reopen: (@Sendable () async throws -> any AsyncKVStoring)?
        /// Another store on the same backing as ``store`` that its `removeAll` must leave alone, or nil.
        public let neighbour: (any AsyncKVStoring)?

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store on the same backing, which `removeAll` must leave alone.
        public init(
            _ store: any AsyncKVStoring,
            reopen: (@Sendable () async throws -> any AsyncKVStoring)? = nil,
            neighbour: (any AsyncKVStoring)? = nil
        ) {
            self.store = store
            self.reopen = reopen
            self.neighbour = neighbour
        }

        var hasSecondHandle: Bool { reopen != nil }
        var hasNeighbour: Bool { neighbour != nil }
    }
}

extension ConformanceCheck where Subject == AsyncKVStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any AsyncKVStoring) async throws {
        try await run(on: AsyncKVStoringConformance.Subject(store))
    }

    /// Creates a check that needs nothing but the store.
    init(_ name: String, _ body: @escaping @Sendable (any AsyncKVStoring) async throws -> Void) {
        self.init(name) { (subject: Subject) in try await body(subject.store) }
    }
}

extension KVStoringConformance.Subject {
    /// The same subject seen through `AsyncKVStoring`, every call made through the synchronous methods, for the
    /// checks ``AsyncKVStoringConformance`` defines.
    var asynchronous: AsyncKVStoringConformance.Subject {
        let reopen = self.reopen
        return AsyncKVStoringConformance.Subject(
            SynchronousKVStore(store),
            reopen: reopen.map { open in { @Sendable in SynchronousKVStore(try open()) } },
            neighbour: neighbour.map { SynchronousKVStore($0) }
        )
    }
}
