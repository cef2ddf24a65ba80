import ForgeCrypt
import ForgeStorageTesting
import Testing

/// The behaviour every ``AsyncCryptStoring`` shares (ForgeStorageTesting's public asynchronous suite), run against
/// each implementation through its asynchronous conformance: the in-memory store, the vault with each kind of
/// master key, and the Keychain logic over a fake keychain.
@Suite("AsyncCryptStoring behaviour")
struct AsyncCryptStoringBehaviourTests {
    @Test(arguments: CryptStoreKind.allCases, AsyncCryptStoringConformance.checks)
    func everyStoreBehavesAlike(kind: CryptStoreKind, check: AsyncCryptStoringConformance.Check) async throws {
        try await kind.withFixture { fixture in
            let subject = AsyncCryptStoringConformance.Subject(
                try Self.asynchronous(fixture.makeStore()),
                reopen: { try Self.asynchronous(fixture.makeStore()) },
                neighbour: try Self.asynchronous(fixture.makeOtherStore())
            )
            try await check.run(on: subject)
        }
    }

    /// The store as the `AsyncCryptStoring` it is: every shipped store conforms.
    private static func asynchronous(_ store: any CryptStoring) throws -> any AsyncCryptStoring {
        try #require(store as? any AsyncCryptStoring, "\(type(of: store)) does not conform to AsyncCryptStoring")
    }
}
