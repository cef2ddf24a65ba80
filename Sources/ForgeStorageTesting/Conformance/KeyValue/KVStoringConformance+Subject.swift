public import ForgeKVStore

extension KVStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    ///
    /// The store alone runs every check but those that need a second handle or a neighbour, which are skipped
    /// (and reported as such) when the subject has none: give `reopen` for a store that other instances or
    /// processes can open on the same storage (a folder, a defaults suite), and `neighbour` for one that shares
    /// its backing with other stores (another namespace in the same folder, another suite).
    ///
    /// `reopen` enables "a second handle sees every write and remove" (which catches a handle that caches reads),
    /// and `neighbour` enables "removeAll and remove leave a neighbouring store alone" (which catches a `removeAll`
    /// that clears the whole backing):
    ///
    /// ```swift
    /// await KVStoringConformance.run(makeSubject: {
    ///     let folder = try makeTemporaryFolder()
    ///     return KVStoringConformance.Subject(
    ///         MyKVStore(folder: folder, namespace: "store"),
    ///         reopen: { MyKVStore(folder: folder, namespace: "store") },
    ///         neighbour: MyKVStore(folder: folder, namespace: "neighbour")
    ///     )
    /// })
    /// ```
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any KVStoring
        /// Opens another handle on the same storage as ``store``, or nil when the store has no such handles.
        public let reopen: (@Sendable () throws -> any KVStoring)?
        /// Another store on the same backing as ``store`` that its `removeAll` must leave alone, or nil.
        public let neighbour: (any KVStoring)?
        /// Where the store parks a call between its two steps while the concurrency checks make a rival call, or nil
        /// (see `RaceGate`): set by the package's mutation tests for their race mutants.
        package var raceGate: RaceGate?

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store on the same backing, which `removeAll` must leave alone.
        public init(
            _ store: any KVStoring,
            reopen: (@Sendable () throws -> any KVStoring)? = nil,
            neighbour: (any KVStoring)? = nil
        ) {
            self.store = store
            self.reopen = reopen
            self.neighbour = neighbour
        }

        var hasSecondHandle: Bool { reopen != nil }
        var hasNeighbour: Bool { neighbour != nil }
    }
}

extension ConformanceCheck where Subject == KVStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any KVStoring) async throws {
        try await run(on: KVStoringConformance.Subject(store))
    }

    /// Creates a check that needs nothing but the store.
    init(_ name: String, _ body: @escaping @Sendable (any KVStoring) async throws -> Void) {
        self.init(name) { (subject: Subject) in try await body(subject.store) }
    }
}
