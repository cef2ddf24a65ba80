public import ForgeCrypt
public import Testing

/// The behaviour every `CryptStoring` shares: the suite the package runs against each of its secret stores,
/// ready to run against yours.
///
/// Each check gets a fresh, empty ``Subject``: the store, and where the store has them, a way to open a
/// second handle on the same storage and a neighbouring store (another namespace or service) that
/// `deleteAll` must leave alone. `reopen` enables the two checks of a second handle ("another handle on the
/// same storage sees the same secrets as they change", "… lists the same keys"); `neighbour` enables "a
/// neighbouring store keeps its secrets through this store's deleteAll and delete". Without them those checks
/// are skipped, and reported as skipped, never as passed. The checks of `keys()` expect the exact keys stored,
/// sorted, each in its NFC form: a store that keeps the default `keys()` (which throws) fails them.
///
/// Two checks call the store from several threads at once; run the suite under ThreadSanitizer too
/// (`swift test --sanitize=thread`), which reports a data race even in a run that happens not to lose a write.
/// Every check takes well under a second on the package's own stores, the vault (which flushes each write) included.
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: CryptStoringConformance.checks)
/// func behavesLikeEverySecretStore(_ check: CryptStoringConformance.Check) async throws {
///     let folder = URL.temporaryDirectory.appending(path: UUID().uuidString)
///     defer { try? FileManager.default.removeItem(at: folder) }
///     func open(_ name: String) throws -> any CryptStoring { try MyVault(folder: folder, name: name) }
///     try await check.run(on: .init(try open("main"), reopen: { try open("main") }, neighbour: try open("other")))
/// }
/// ```
public enum CryptStoringConformance {
    /// One check of this suite.
    public typealias Check = ConformanceCheck<CryptStoringConformance.Subject>

    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        synchronous(AsyncCryptStoringConformance.coreChecks) + concurrencyChecks
            + synchronous(AsyncCryptStoringConformance.listingChecks)
    }

    /// Runs every check, each against a fresh subject from `makeSubject`, in the current test.
    ///
    /// ```swift
    /// @Test func behavesLikeEverySecretStore() async {
    ///     await CryptStoringConformance.run { CryptStoringConformance.Subject(MySecretStore()) }
    /// }
    /// ```
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store, with its second handle and neighbour when it has them.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeSubject: () async throws -> Subject,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach(makeSubject, sourceLocation: sourceLocation)
    }
}

extension CryptStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any CryptStoring
        /// Opens another handle on the same storage as ``store`` (a new instance over the same folder or
        /// keychain service), or nil when the store cannot be reopened.
        ///
        /// It enables the checks that a second handle sees every change the first makes, at once (a handle that
        /// caches what it read fails them) and lists the same keys; without it they are skipped.
        public let reopen: (@Sendable () throws -> any CryptStoring)?
        /// Another store of the same kind on the same backing as ``store`` (another namespace of the same folder,
        /// another service of the same keychain), or nil.
        ///
        /// It enables the check that ``store``'s `deleteAll`, `delete`, reads and `keys()` never reach the
        /// neighbour's secrets; without it that check is skipped. A store that has no shared backing can give
        /// another instance.
        public let neighbour: (any CryptStoring)?
        /// Where the store parks a call between its two steps while the concurrency checks make a rival call, or nil
        /// (see `RaceGate`): set by the package's mutation tests for their race mutants.
        package var raceGate: RaceGate?

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store beside it, which `deleteAll` must leave alone.
        public init(
            _ store: any CryptStoring,
            reopen: (@Sendable () throws -> any CryptStoring)? = nil,
            neighbour: (any CryptStoring)? = nil
        ) {
            self.store = store
            self.reopen = reopen
            self.neighbour = neighbour
        }

        var hasSecondHandle: Bool { reopen != nil }
        var hasNeighbour: Bool { neighbour != nil }
    }
}

extension CryptStoringConformance {
    /// The checks `AsyncCryptStoringConformance` defines, run against a synchronous subject through its store's
    /// synchronous methods.
    static func synchronous(_ checks: [AsyncCryptStoringConformance.Check]) -> [Check] {
        checks.map { $0.adapted { (subject: Subject) in subject.asynchronous } }
    }
}

extension ConformanceCheck where Subject == CryptStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any CryptStoring) async throws {
        try await run(on: CryptStoringConformance.Subject(store))
    }
}
