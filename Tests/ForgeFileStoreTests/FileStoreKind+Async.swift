import ForgeFileStore
import ForgeStorageTesting
import Testing

extension FileStoreKind {
    /// Runs `body` with a fresh, empty store of this kind seen through `AsyncFileStoring` (the store's own
    /// conformance), with a second handle and a neighbour where the store has them.
    func withAsyncSubject(_ body: (AsyncFileStoringConformance.Subject) async throws -> Void) async throws {
        try await withSubject { subject in
            let reopen = subject.reopen
            try await body(
                AsyncFileStoringConformance.Subject(
                    try Self.asynchronous(subject.store),
                    reopen: reopen.map { open in { @Sendable in try Self.asynchronous(try open()) } },
                    neighbour: try subject.neighbour.map(Self.asynchronous),
                    foldsCase: subject.foldsCase
                )
            )
        }
    }

    /// The store as the `AsyncFileStoring` it is: every shipped store conforms.
    private static func asynchronous(_ store: any FileStoring) throws -> any AsyncFileStoring {
        try #require(store as? any AsyncFileStoring, "\(type(of: store)) does not conform to AsyncFileStoring")
    }
}
