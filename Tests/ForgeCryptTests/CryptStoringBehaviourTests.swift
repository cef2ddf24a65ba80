import ForgeCrypt
import ForgeStorageTesting
import Testing

/// The behaviour every ``CryptStoring`` shares (ForgeStorageTesting's public conformance suite), run against
/// each implementation: the in-memory store, the vault with each kind of master key, and the Keychain
/// logic over a fake keychain.
@Suite("CryptStoring behaviour")
struct CryptStoringBehaviourTests {
    @Test(arguments: CryptStoreKind.allCases, CryptStoringConformance.checks)
    func everyStoreBehavesAlike(kind: CryptStoreKind, check: CryptStoringConformance.Check) async throws {
        try await kind.withFixture { fixture in
            let subject = CryptStoringConformance.Subject(
                try fixture.makeStore(),
                reopen: { try fixture.makeStore() },
                neighbour: try fixture.makeOtherStore()
            )
            try await check.run(on: subject)
        }
    }
}
