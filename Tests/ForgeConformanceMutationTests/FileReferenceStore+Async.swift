import ForgeFileStore
import ForgeStorageTesting

/// The reference store, and each mutant of it, as an `AsyncFileStoring`: its methods meet the asynchronous
/// requirements, as `DiskFileStore`'s do, so `AsyncFileStoringConformance` runs against it too.
extension FileReferenceStore: AsyncFileStoring {
    /// A subject of `AsyncFileStoringConformance` with a second handle on the same namespace and a neighbour in
    /// another namespace of the backing.
    static func asyncSubject(_ mutant: FileMutant?) -> AsyncFileStoringConformance.Subject {
        let backing = FileBacking()
        return AsyncFileStoringConformance.Subject(
            FileReferenceStore(backing: backing, mutant: mutant),
            reopen: { FileReferenceStore(backing: backing, mutant: mutant) },
            neighbour: FileReferenceStore(backing: backing, namespace: "neighbour", mutant: mutant)
        )
    }
}
