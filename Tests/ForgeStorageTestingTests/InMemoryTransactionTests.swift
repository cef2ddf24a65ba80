import Synchronization
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// The in-memory twins' transactions: the conformance suite on each kind alone and on all three together, a fault a
/// test injects in the middle, the synchronous form, and stores that cannot share a transaction.
struct InMemoryTransactionTests {
    /// The stores a check runs on: the three kinds together, and each alone.
    enum Kinds: String, CaseIterable, Sendable {
        case all, keyValues, files, secrets, reporting, faulting

        var subject: TransactionConformance.Subject {
            switch self {
            case .all: .init(keyValues: InMemoryKVStore(), files: InMemoryFileStore(), secrets: InMemoryCrypt())
            case .keyValues: .init(keyValues: InMemoryKVStore())
            case .files: .init(files: InMemoryFileStore())
            case .secrets: .init(secrets: InMemoryCrypt())
            case .reporting:
                .init(
                    keyValues: InMemoryKVStore().reportingEvents { _ in },
                    files: InMemoryFileStore().reportingEvents { _ in },
                    secrets: InMemoryCrypt().reportingEvents { _ in }
                )
            case .faulting:
                .init(
                    keyValues: InMemoryKVStore().injectingFaults(),
                    files: InMemoryFileStore().injectingFaults(),
                    secrets: InMemoryCrypt().injectingFaults()
                )
            }
        }
    }

    @Test(arguments: Kinds.allCases, TransactionConformance.checks)
    func theTwinsShareTransactionsAcrossKinds(_ kinds: Kinds, _ check: TransactionConformance.Check) async throws {
        try await check.run(on: kinds.subject)
    }

    @Test func aFaultInjectedInTheMiddleOfATransactionUndoesTheWritesBeforeIt() async throws {
        let faults = StoreFaults()
        let settings = InMemoryKVStore(faults: faults)
        let files = InMemoryFileStore(faults: faults)
        let count = KVKey<Int>("count")
        try settings.set(count, value: 1)
        faults.failNext(.write, at: "report.json", with: .outOfSpace)

        await #expect(throws: FileStoreError.writeFailed(path: "report.json", reason: .outOfSpace)) {
            try await StorageTransaction.run { transaction in
                try transaction.set(count, value: 2, in: settings)
                try transaction.save(Data("{}".utf8), to: "report.json", in: files)
            }
        }
        #expect(settings.get(count) == 1)
        #expect(files.paths == [])
    }

    @Test func theSynchronousFormAppliesAtOnceAndReturnsTheBodysResult() throws {
        let settings = InMemoryKVStore()
        let secrets = InMemoryCrypt()
        let returned = try StorageTransaction.run { transaction in
            try transaction.set(KVKey<String>("user"), value: "ada", in: settings)
            try transaction.set("token", for: CryptKey<String>(key: "token"), in: secrets)
            return 7
        }
        #expect(returned == 7)
        #expect(settings.get(KVKey<String>("user")) == "ada")
        #expect(try secrets.get(CryptKey<String>(key: "token")) == "token")
    }

    @Test func aFileStreamTellsOnlyOfATransactionThatIsApplied() async throws {
        let files = InMemoryFileStore()
        let changes = try files.changes(in: "")
        await #expect(throws: FileStoreError.notFound(path: "missing.txt")) {
            try await StorageTransaction.run { transaction in
                try transaction.save(Data("a".utf8), to: "a.txt", in: files)
                try transaction.delete("missing.txt", in: files)
            }
        }
        try await StorageTransaction.run { transaction in
            try transaction.save(Data("b".utf8), to: "b.txt", in: files)
        }
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .created("b.txt"), "the undone write of a.txt is never told")
    }

    @Test func aStoreOfAnotherDatabaseCannotJoinAndNothingIsApplied() async throws {
        let settings = InMemoryKVStore()
        let elsewhere = OtherDatabaseStore()
        await #expect(throws: StorageTransactionError.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("a"), value: 1, in: settings)
                try transaction.set(KVKey<Int>("b"), value: 1, in: elsewhere)
            }
        }
        #expect(settings.count == 0)
        #expect(elsewhere.runner.commits == 0)
    }
}

/// Observers of a transaction's stores run once every store's lock is released, so they may read and write any store;
/// a transaction runs from the main actor with the caller's state.
extension InMemoryTransactionTests {
    /// Two in-memory stores, in the order the runner takes their locks: `outer` first.
    static func twoStores() -> (outer: InMemoryKVStore, inner: InMemoryKVStore) {
        let a = InMemoryKVStore()
        let b = InMemoryKVStore()
        return ObjectIdentifier(a) < ObjectIdentifier(b) ? (a, b) : (b, a)
    }

    /// Runs `body` on a thread of its own and returns whether it finished: false only when it deadlocked, as a
    /// transaction of two writes takes microseconds, not a minute.
    static func finishes(_ body: @escaping @Sendable () throws -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? body()
            done.signal()
        }
        .start()
        return done.wait(timeout: .now() + 60) == .success
    }

    @Test func anObserverMayReadAndWriteTheOtherStoresOfTheTransaction() {
        // Each store's observer, whichever lock the runner takes first, reads the other store and runs a transaction.
        let (outer, inner) = Self.twoStores()
        let audit = KVKey<String>("audit")
        let observations = [(outer, inner), (inner, outer)]
            .map { observed, other in
                observed.observeChanges { name in
                    _ = other.count
                    guard name != audit.key else { return }
                    try? StorageTransaction.run { transaction in
                        try transaction.set(audit, value: "\(name ?? "all") changed", in: other)
                    }
                }
            }
        let finished = Self.finishes {
            try StorageTransaction.run { transaction in
                try transaction.set(KVKey<Int>("a"), value: 1, in: outer)
                try transaction.set(KVKey<Int>("b"), value: 1, in: inner)
            }
        }
        #expect(finished, "the transaction deadlocked: an observer ran while a store's lock was held")
        #expect(outer.get(audit) != nil && inner.get(audit) != nil)
        withExtendedLifetime(observations) {}
    }

    @Test @MainActor func aTransactionRunsFromTheMainActorWithItsState() async throws {
        let model = CounterModel()
        try await model.save()
        try await model.save()
        #expect(model.settings.get(CounterModel.key) == 2)
    }

    @Test func aRollbackLeavesFoldersSizesAndDatesAsTheyWere() async throws {
        let files = InMemoryFileStore()
        try await files.save(Data("abc".utf8), to: "a/b.txt", overwrite: true)
        let before = try #require(try files.fileInfo(at: "a/b.txt"))
        #expect(throws: FileStoreError.writeFailed(path: "a/c/d.txt/e", reason: .parentIsFile)) {
            try StorageTransaction.run { transaction in
                try transaction.save(Data("x".utf8), to: "a/c/d.txt", in: files)
                try transaction.save(Data("longer".utf8), to: "a/b.txt", in: files)
                try transaction.delete("a/b.txt", in: files)
                try transaction.save(Data("y".utf8), to: "a/c/d.txt/e", in: files)  // a file staged above is in the way
            }
        }
        #expect(try await files.totalSize() == 3)
        #expect(try await files.list(in: "a") == ["a/b.txt"])
        #expect(try files.fileInfo(at: "a/b.txt") == before)
        try await files.delete("a/b.txt")
        #expect(try await files.list(in: "") == [], "the folder went with its last file: its count was put back")
    }
}

/// A main-actor model that counts its saves in a transaction.
@MainActor private final class CounterModel {
    static let key = KVKey<Int>("saves")
    let settings = InMemoryKVStore()
    var saves = 0

    func save() async throws {
        try await StorageTransaction.run { transaction in
            saves += 1
            try transaction.set(Self.key, value: saves, in: settings)
        }
    }
}

/// A key-value store of a database of its own, whose runner counts its commits.
private final class OtherDatabaseStore: KVStoring, KVBackend, AsyncKVStoring, TransactionalStore {
    let runner = CountingRunner()
    let values = InMemoryKVStore()
    var transactionRunner: any TransactionRunner { runner }

    func storedValue(named name: String) throws -> KVStoredValue? { try values.storedValue(named: name) }
    func store(_ value: KVStoredValue, named name: String) throws { try values.store(value, named: name) }
    func removeValue(named name: String) throws { try values.removeValue(named: name) }
    func storedNames() throws -> [String] { try values.storedNames() }
    func removeAll() throws { try values.removeAll() }

    final class CountingRunner: TransactionRunner {
        private let count = Mutex(0)
        var commits: Int { count.withLock { $0 } }
        func commit(_ writes: [StagedWrite]) { count.withLock { $0 += 1 } }
    }
}
