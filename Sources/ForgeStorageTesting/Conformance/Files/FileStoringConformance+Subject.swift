public import ForgeFileStore

extension FileStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    ///
    /// The store alone runs every check but those that need a second handle or a neighbour, which are skipped
    /// (and reported as such) when the subject has none:
    /// - `reopen`, for a store that other instances or processes can open on the same storage (a folder),
    ///   enables "a second handle sees every change at once".
    /// - `neighbour`, for a store that shares its backing with other stores (another namespace in the same
    ///   folder), enables "deleteAll leaves a neighbour's files alone".
    ///
    /// Set `foldsCase` for a store whose names are case-insensitive (a `DiskFileStore` on a case-insensitive
    /// volume): the case check then expects `A.txt` and `a.txt` to be one file rather than two.
    ///
    /// ```swift
    /// FileStoringConformance.Subject(
    ///     DiskFileStore(directory: .custom(folder), namespace: "a"),
    ///     reopen: { DiskFileStore(directory: .custom(folder), namespace: "a") },
    ///     neighbour: DiskFileStore(directory: .custom(folder), namespace: "b")
    /// )
    /// ```
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any FileStoring
        /// Opens another handle on the same storage as ``store``, or nil when the store has no such handles.
        public let reopen: (@Sendable () throws -> any FileStoring)?
        /// Another store on the same backing as ``store`` that its `deleteAll` must leave alone, or nil.
        public let neighbour: (any FileStoring)?
        /// Whether the store's names are case-insensitive, so that `A.txt` and `a.txt` are one file.
        public let foldsCase: Bool
        /// Where the store parks a call between its two steps while the concurrency checks make a rival call, or nil
        /// (see `RaceGate`): set by the package's mutation tests for their race mutants.
        package var raceGate: RaceGate?

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store on the same backing, which `deleteAll` must leave alone.
        ///   - foldsCase: Whether names are case-insensitive (`A.txt` and `a.txt` one file); false by default, as
        ///     `FileStoring` documents.
        public init(
            _ store: any FileStoring,
            reopen: (@Sendable () throws -> any FileStoring)? = nil,
            neighbour: (any FileStoring)? = nil,
            foldsCase: Bool = false
        ) {
            self.store = store
            self.reopen = reopen
            self.neighbour = neighbour
            self.foldsCase = foldsCase
        }

        var hasSecondHandle: Bool { reopen != nil }
        var hasNeighbour: Bool { neighbour != nil }
    }
}

extension ConformanceCheck where Subject == FileStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any FileStoring) async throws {
        try await run(on: FileStoringConformance.Subject(store))
    }

    /// Creates a check that needs nothing but the store.
    init(_ name: String, _ body: @escaping @Sendable (any FileStoring) async throws -> Void) {
        self.init(name) { (subject: Subject) in try await body(subject.store) }
    }
}
