import ForgeCrypt
import ForgePostgres
import ForgeStorageTesting
import Foundation
import Testing

/// What every store that changes its master key in place promises (ForgeStorageTesting's `RotationConformance`), run
/// against `PostgresCrypt` alone and seen through the seam, for events and for faults: a wrapper keeps rotation.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptRotationBehaviourTests {
    @Test(arguments: RotationConformance.checks, Seam.allCases)
    func rotatesLikeEveryStore(check: RotationConformance.Check, seam: Seam) async throws {
        let masterKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withCrypts(masterKey: masterKey) { stores in
            let subject =
                switch seam {
                case .alone: RotationConformance.Subject(stores[0], masterKey: masterKey)
                case .events: RotationConformance.Subject(stores[0].reportingEvents { _ in }, masterKey: masterKey)
                case .faults:
                    RotationConformance.Subject(stores[0].injectingFaults(StoreFaults()), masterKey: masterKey)
                }
            try await check.run(on: subject)
        }
    }
}
