public import ForgeFileStore

extension AsyncFileStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    ///
    /// The store alone runs every check but those that need a second handle or a neighbour, which are skipped
    /// (and reported as such) when the subject has none:
    /// - `reopen`, for a store that other instances or processes can open on the same storage (a folder),
    ///   enables "a second handle sees every change at once".
    /// - `neighbour`, for a store that shares its backing with other stores (another namespace in the same
    ///   folder), enables "deleteAll leaves a neighbour's files alone".
    ///
    /// Set `foldsCase` for a store whose names are case-insensitive (a store over a case-insensitive
    /// volume): the case check then expects `A.txt` and `a.txt` to be one file rather than two.
    ///
    /// ```swift
    /// AsyncFileStoringConformance.Subject(
    ///     MyNetworkFileStore(client, namespace: "a"),
    ///     reopen: { MyNetworkFileStore(try await Client.connect(), namespace: "a") },
    ///     neighbour: MyNetworkFileStore(client, namespace: "b")
    /// )
    /// ```
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any AsyncFileStoring
        /// Opens another handle on the same storage as ``store``, or nil when the store has no such handles.
        public let reopen: (@Sendable () async throws -> any AsyncFileStoring)?
        /// Another store on the same backing as ``store`` that its `deleteAll` must leave alone, or nil.
        public let neighbour: (any AsyncFileStoring)?
        /// Whether the store's names are case-insensitive, so that `A.txt` and `a.txt` are one file.
        public let foldsCase: Bool

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store on the same backing, which `deleteAll` must leave alone.
        ///   - foldsCase: Whether names are case-insensitive (`A.txt` and `a.txt` one file); false by default, as
        ///     `FileStoring` documents.
        public init(
            _ store: any AsyncFileStoring,
            reopen: (@Sendable () async throws -> any AsyncFileStoring)? = nil,
            neighbour: (any AsyncFileStoring)? = nil,
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

extension ConformanceCheck where Subject == AsyncFileStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any AsyncFileStoring) async throws {
        try await run(on: AsyncFileStoringConformance.Subject(store))
    }

    /// Creates a check that needs nothing but the store.
    init(_ name: String, _ body: @escaping @Sendable (any AsyncFileStoring) async throws -> Void) {
        self.init(name) { (subject: Subject) in try await body(subject.store) }
    }
}

extension FileStoringConformance.Subject {
    /// The same subject seen through `AsyncFileStoring`, every call made through the store's own methods, for the
    /// checks ``AsyncFileStoringConformance`` defines.
    var asynchronous: AsyncFileStoringConformance.Subject {
        let reopen = self.reopen
        return AsyncFileStoringConformance.Subject(
            SynchronousFileStore(store),
            reopen: reopen.map { open in { @Sendable in SynchronousFileStore(try open()) } },
            neighbour: neighbour.map { SynchronousFileStore($0) },
            foldsCase: foldsCase
        )
    }
}
