public import ForgeCrypt
public import ForgeKVStore
public import Testing

extension KVStoringConformance {
    /// Runs this suite through the store's synchronous methods, then ``AsyncKVStoringConformance`` through its
    /// asynchronous ones: the two suites of a store of both forms, each check against a fresh subject.
    ///
    /// ```swift
    /// await KVStoringConformance.runInBothForms {
    ///     StoreSubject(MyKVStore(), reopen: { MyKVStore() })
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store, with its second handle and neighbour when it has them.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func runInBothForms(
        makeSubject: () async throws -> StoreSubject<any KVStoring & AsyncKVStoring>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await BothForms.run(Self.self, AsyncKVStoringConformance.self, makeSubject, { $0 }, { $0 }, at: sourceLocation)
    }
}

extension CryptStoringConformance {
    /// Runs this suite through the store's synchronous methods, then ``AsyncCryptStoringConformance`` through its
    /// asynchronous ones: the two suites of a store of both forms, each check against a fresh subject.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store, with its second handle and neighbour when it has them.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func runInBothForms(
        makeSubject: () async throws -> StoreSubject<any CryptStoring & AsyncCryptStoring>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await BothForms.run(
            Self.self,
            AsyncCryptStoringConformance.self,
            makeSubject,
            { $0 },
            { $0 },
            at: sourceLocation
        )
    }
}

/// The two suites of one kind, run on a store of both forms.
enum BothForms {
    /// Runs `synchronous` on each subject with its stores seen as `synchronousForm` makes them, then `asynchronous`
    /// with them seen as `asynchronousForm` makes them.
    static func run<Both, Synchronous: ConformanceSuite, Asynchronous: ConformanceSuite, SyncStore, AsyncStore>(
        _ synchronous: Synchronous.Type,
        _ asynchronous: Asynchronous.Type,
        _ makeSubject: () async throws -> StoreSubject<Both>,
        _ synchronousForm: @escaping @Sendable (Both) -> SyncStore,
        _ asynchronousForm: @escaping @Sendable (Both) -> AsyncStore,
        at sourceLocation: SourceLocation
    ) async
    where Synchronous.Subject == StoreSubject<SyncStore>, Asynchronous.Subject == StoreSubject<AsyncStore> {
        await synchronous.run(
            makeSubject: { try await makeSubject().map(synchronousForm) },
            sourceLocation: sourceLocation
        )
        await asynchronous.run(
            makeSubject: { try await makeSubject().map(asynchronousForm) },
            sourceLocation: sourceLocation
        )
    }
}
