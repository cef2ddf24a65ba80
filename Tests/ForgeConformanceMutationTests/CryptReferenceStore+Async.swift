import ForgeCrypt
import ForgeStorageTesting

/// The reference store, and each mutant of it, as an `AsyncCryptStoring`: its synchronous methods meet the
/// asynchronous requirements, as the package's own stores do, so `AsyncCryptStoringConformance` runs against it too.
extension CryptReferenceStore: AsyncCryptStoring {
    /// A subject of `AsyncCryptStoringConformance` with a second handle on the same namespace and a neighbour in
    /// another namespace of the backing.
    static func asyncSubject(_ mutant: CryptMutant?) -> AsyncCryptStoringConformance.Subject {
        let backing = CryptBacking()
        return AsyncCryptStoringConformance.Subject(
            CryptReferenceStore(backing: backing, mutant: mutant),
            reopen: { CryptReferenceStore(backing: backing, mutant: mutant) },
            neighbour: CryptReferenceStore(backing: backing, namespace: "neighbour", mutant: mutant)
        )
    }
}
