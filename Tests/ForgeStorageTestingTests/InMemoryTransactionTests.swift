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
        case all, keyValues, files, secrets

        var subject: TransactionConformance.Subject {
            switch self {
            case .all: .init(keyValues: InMemoryKVStore(), files: InMemoryFileStore(), secrets: InMemoryCrypt())
            case .keyValues: .init(keyValues: InMemoryKVStore())
            case .files: .init(files: InMemoryFileStore())
            case .secrets: .init(secrets: InMemoryCrypt())
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

/// A key-value store of a database of its own, whose runner counts its commits.
private final class OtherDatabaseStore: TransactionalKVStore {
    let runner = CountingRunner()
    var transactionRunner: any TransactionRunner { runner }

    final class CountingRunner: TransactionRunner {
        private let count = Mutex(0)
        var commits: Int { count.withLock { $0 } }
        func commit(_ writes: [StagedWrite]) { count.withLock { $0 += 1 } }
    }
}
