import ForgeKVStore
import ForgeStorageTesting
import Testing

extension KVStoreKind {
    /// Runs `body` with a fresh, empty store of this kind seen through `AsyncKVStoring` (the store's own
    /// conformance), with a second handle and a neighbour where the store has them.
    func withAsyncSubject(_ body: (AsyncKVStoringConformance.Subject) async throws -> Void) async throws {
        try await withSubject { subject in
            let reopen = subject.reopen
            try await body(
                AsyncKVStoringConformance.Subject(
                    try Self.asynchronous(subject.store),
                    reopen: reopen.map { open in { @Sendable in try Self.asynchronous(try await open()) } },
                    neighbour: try subject.neighbour.map(Self.asynchronous)
                )
            )
        }
    }

    /// The store as the `AsyncKVStoring` it is: every shipped store conforms.
    private static func asynchronous(_ store: any KVStoring) throws -> any AsyncKVStoring {
        try #require(store as? any AsyncKVStoring, "\(type(of: store)) does not conform to AsyncKVStoring")
    }
}
