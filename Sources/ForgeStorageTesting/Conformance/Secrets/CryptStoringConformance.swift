public import ForgeCrypt
import Testing

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
public enum CryptStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        synchronous(AsyncCryptStoringConformance.coreChecks) + concurrencyChecks
            + synchronous(AsyncCryptStoringConformance.listingChecks)
    }
}

extension CryptStoringConformance {
    /// The checks `AsyncCryptStoringConformance` defines, run against a synchronous subject through its store's
    /// synchronous methods.
    static func synchronous(_ checks: [AsyncCryptStoringConformance.Check]) -> [Check] {
        checks.map { $0.adapted { (subject: Subject) in subject.asynchronous } }
    }
}

extension CryptStoringConformance {
    /// The store a check runs against, with a second handle and a neighbour where it has them (see ``StoreSubject``).
    public typealias Subject = StoreSubject<any CryptStoring>
}
