import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// What every store that changes its master key in place promises (ForgeStorageTesting's `RotationConformance`), run
/// against `SQLiteCrypt` alone and seen through the seam, for events and for faults: a wrapper keeps rotation.
struct SQLiteCryptRotationBehaviourTests {
    @Test(arguments: Seam.allCases)
    func rotatesLikeEveryStore(seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await RotationConformance.run {
                let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
                let store = SQLiteCrypt(fileURL: databaseFile(in: folder), namespace: "secrets", masterKey: key)
                return switch seam {
                case .alone: RotationConformance.Subject(store, masterKey: key)
                case .events: RotationConformance.Subject(store.reportingEvents { _ in }, masterKey: key)
                case .faults: RotationConformance.Subject(store.injectingFaults(StoreFaults()), masterKey: key)
                }
            }
        }
    }
}
