/// The store a conformance check runs against, with what some checks need beside it: the `Subject` of every suite
/// (`KVStoringConformance.Subject` is a `StoreSubject<any KVStoring>`, and so on for each suite).
///
/// The store alone runs every check but those that need a second handle or a neighbour, which are skipped (and
/// reported as such) when the subject has none: give `reopen` for a store that other instances or processes can open
/// on the same storage (a folder, a defaults suite, a table), and `neighbour` for one that shares its backing with
/// other stores (another namespace in the same folder, another suite):
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
public struct StoreSubject<Store: Sendable>: Sendable, ConformanceSubject {
    /// The store under test: fresh and empty.
    public let store: Store
    /// Opens another handle on the same storage as ``store``, or nil when the store has no such handles.
    public let reopen: (@Sendable () async throws -> Store)?
    /// Another store on the same backing as ``store``, which its clear-all must leave alone, or nil.
    public let neighbour: Store?
    /// Where the store parks a call between its two steps while the concurrency checks make a rival call, or nil
    /// (see `RaceGate`): set by the package's mutation tests for their race mutants.
    package var raceGate: RaceGate?

    /// Creates a subject.
    ///
    /// - Parameters:
    ///   - store: The store under test: fresh and empty.
    ///   - reopen: Opens another handle on the same storage, if the store has such handles.
    ///   - neighbour: Another store on the same backing, which the store's clear-all must leave alone.
    public init(
        _ store: Store,
        reopen: (@Sendable () async throws -> Store)? = nil,
        neighbour: Store? = nil
    ) {
        self.store = store
        self.reopen = reopen
        self.neighbour = neighbour
    }

    /// The same subject with each of its stores seen as `form` makes it (a store of both forms as one form).
    func map<Other>(_ form: @escaping @Sendable (Store) -> Other) -> StoreSubject<Other> {
        let reopen = self.reopen
        var subject = StoreSubject<Other>(
            form(store),
            reopen: reopen.map { open in { @Sendable in form(try await open()) } },
            neighbour: neighbour.map(form)
        )
        subject.raceGate = raceGate
        return subject
    }

    var hasSecondHandle: Bool { reopen != nil }
    var hasNeighbour: Bool { neighbour != nil }
}

extension ConformanceCheck {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run<Store>(on store: Store) async throws where Subject == StoreSubject<Store> {
        try await run(on: StoreSubject(store))
    }

    /// Creates a check that needs nothing but the store.
    init<Store>(_ name: String, _ body: @escaping @Sendable (Store) async throws -> Void)
    where Subject == StoreSubject<Store> {
        self.init(name) { (subject: Subject) in try await body(subject.store) }
    }
}
