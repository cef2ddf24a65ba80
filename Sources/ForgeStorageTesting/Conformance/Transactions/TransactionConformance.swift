internal import ForgeCrypt
internal import ForgeFileStore
internal import ForgeKVStore
internal import Foundation
import Testing

/// The behaviour every store that can be part of a `StorageTransaction` shares: all of a transaction's writes happen
/// or none do, a failure in the middle undoes the writes before it, and no reader sees half of one.
///
/// Each check gets a fresh subject: empty stores of one database, of one kind or more. Run each check as a test case
/// of its own:
///
/// ```swift
/// @Test(arguments: TransactionConformance.checks)
/// func transactionsAreAllOrNothing(_ check: TransactionConformance.Check) async throws {
///     let database = try MyDatabase.temporary()
///     try await check.run(on: .init(keyValues: database.keyValues(), files: database.files()))
/// }
/// ```
///
/// or all of them in one test with ``ConformanceSuite/run(makeSubject:sourceLocation:)``. The checks run transactions with
/// `try await StorageTransaction.run`, so they hold a store whose runner applies them only asynchronously (PostgreSQL)
/// as much as one that applies them at once.
public enum TransactionConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        [
            Check("a transaction applies all its writes and removes when its body returns", appliesEveryWrite),
            Check("nothing is applied while the body runs, nor when it throws", nothingIsAppliedBeforeTheBodyReturns),
            Check("writes are applied in the order they were staged", writesAreAppliedInOrder),
            Check(
                "a failure in the middle applies none of the transaction's writes",
                aFailureInTheMiddleAppliesNothing
            ),
            Check(
                "a file write that cannot be applied fails the whole transaction",
                unmetNeed: { $0.files == nil ? "the subject has no file store" : nil },
                aFileWriteThatCannotBeAppliedFailsTheWholeTransaction
            ),
            Check(
                "a key's older names are removed with it, and a value that cannot be encoded fails as it is staged",
                unmetNeed: { $0.keyValues == nil ? "the subject has no key-value store" : nil },
                keysAreWrittenAsKVStoringWritesThem
            ),
            Check("a transaction that has ended takes no write", anEndedTransactionTakesNoWrite),
            Check(
                "the synchronous form applies as the asynchronous one does, or throws commitNeedsAwait and applies nothing",
                theSynchronousFormAppliesOrRefuses
            ),
            Check("a concurrent reader never sees half of a transaction", aReaderNeverSeesHalfOfATransaction),
        ]
    }

    /// The failure a check stages in the middle of a transaction.
    struct InjectedFailure: Error, Equatable {}

    static let first = KVKey<Int>("forge.transaction.first")
    static let second = KVKey<Int>("forge.transaction.second")
    static let third = KVKey<Int>("forge.transaction.third")
    static let token = CryptKey<String>(key: "forge.transaction.token")
    static let otherToken = CryptKey<String>(key: "forge.transaction.otherToken")

    private static func appliesEveryWrite(_ subject: Subject) async throws {
        if let store = subject.keyValues {
            try await store.set(first, value: 1)
            try await store.set(second, value: 1)
        }
        if let files = subject.files { try await files.save(Data("old".utf8), to: "old.txt", overwrite: true) }
        if let secrets = subject.secrets { try await secrets.set("old", for: otherToken) }

        let returned = try await StorageTransaction.run { transaction in
            if let store = subject.keyValues {
                try transaction.set(first, value: 2, in: store)
                try transaction.remove(second, in: store)
                try transaction.set(third, value: 3, in: store)
            }
            if let files = subject.files {
                try transaction.save(Data("new".utf8), to: "reports/new.txt", in: files)
                try transaction.delete("old.txt", in: files)
            }
            if let secrets = subject.secrets {
                try transaction.set("new", for: token, in: secrets)
                try transaction.delete(otherToken, in: secrets)
            }
            return "done"
        }

        #expect(returned == "done", "run returns what its body returns")
        if let store = subject.keyValues {
            #expect(try await store.value(for: first) == 2)
            #expect(try await store.contains(second) == false, "a removal in a transaction removes")
            #expect(try await store.value(for: third) == 3)
        }
        if let files = subject.files {
            #expect(try await files.load("reports/new.txt") == Data("new".utf8))
            #expect(try await files.exists("old.txt") == false)
            #expect(try await files.list(in: "") == ["reports/"])
        }
        if let secrets = subject.secrets {
            #expect(try await secrets.get(token) == "new")
            #expect(try await secrets.contains(otherToken) == false)
        }
    }

    private static func nothingIsAppliedBeforeTheBodyReturns(_ subject: Subject) async throws {
        try await expectUnchanged(subject, throwing: InjectedFailure()) {
            try await StorageTransaction.run { transaction in
                try stageOneWriteOfEachKind(subject, in: transaction)
                if let store = subject.keyValues {
                    #expect(try await store.value(for: first) == 1, "a read in the body finds the store as it was")
                }
                if let files = subject.files {
                    #expect(try await files.exists("staged.txt") == false, "a read in the body finds no staged file")
                }
                throw InjectedFailure()
            }
        }
    }

    private static func writesAreAppliedInOrder(_ subject: Subject) async throws {
        try await StorageTransaction.run { transaction in
            if let store = subject.keyValues {
                try transaction.set(first, value: 1, in: store)
                try transaction.set(first, value: 2, in: store)
                try transaction.set(second, value: 1, in: store)
                try transaction.remove(second, in: store)
                try transaction.remove(third, in: store)
                try transaction.set(third, value: 3, in: store)
            }
            if let files = subject.files {
                try transaction.save(Data("a".utf8), to: "folder/a.txt", in: files)
                try transaction.delete("folder/a.txt", in: files)
                // The folder went with its last file, so a file may take its name.
                try transaction.save(Data("b".utf8), to: "folder", in: files)
            }
            if let secrets = subject.secrets {
                try transaction.set("one", for: token, in: secrets)
                try transaction.set("two", for: token, in: secrets)
                try transaction.set("one", for: otherToken, in: secrets)
                try transaction.delete(otherToken, in: secrets)
            }
        }
        if let store = subject.keyValues {
            #expect(try await store.value(for: first) == 2, "the later of two writes of a key wins")
            #expect(try await store.contains(second) == false, "a removal after a write removes")
            #expect(try await store.value(for: third) == 3, "a write after a removal stores")
        }
        if let files = subject.files {
            #expect(try await files.list(in: "") == ["folder"])
            #expect(try await files.load("folder") == Data("b".utf8))
        }
        if let secrets = subject.secrets {
            #expect(try await secrets.get(token) == "two")
            #expect(try await secrets.contains(otherToken) == false)
        }
    }

    private static func aFailureInTheMiddleAppliesNothing(_ subject: Subject) async throws {
        // The failure comes after a write of every kind and before another, in each store in turn: a runner must undo
        // what it applied, in every store, also one it applied before it reached the store that failed.
        for failing in subject.stores {
            try await expectUnchanged(subject, throwing: InjectedFailure()) {
                try await StorageTransaction.run { transaction in
                    try stageOneWriteOfEachKind(subject, in: transaction)
                    try transaction.stageFailure(InjectedFailure(), in: failing)
                    try stageOneWriteOfEachKind(subject, in: transaction)
                }
            }
        }
    }

    private static func theSynchronousFormAppliesOrRefuses(_ subject: Subject) async throws {
        try await prepareUnchanged(subject)
        for failing in subject.stores {
            do {
                try runSynchronously(subject, failingIn: failing)
                Issue.record("a synchronous transaction with a failure in the middle succeeded")
            } catch is InjectedFailure {
            } catch StorageTransactionError.commitNeedsAwait {
            }
        }
        try await expectPrepared(subject)
        do {
            try runSynchronously(subject, failingIn: nil)
        } catch StorageTransactionError.commitNeedsAwait {
            // A runner that commits only asynchronously refuses, and applies nothing.
            try await expectPrepared(subject)
            return
        }
        try await expectStagedWritesApplied(subject)
    }

    /// Runs ``stageOneWriteOfEachKind(_:in:)`` in the synchronous form of `StorageTransaction.run`, with a failure in
    /// the middle when `failing` is a store.
    private static func runSynchronously(_ subject: Subject, failingIn failing: (any TransactionalStore)?) throws {
        try StorageTransaction.run { transaction in
            try stageOneWriteOfEachKind(subject, in: transaction)
            if let failing { try transaction.stageFailure(InjectedFailure(), in: failing) }
        }
    }

    private static func aFileWriteThatCannotBeAppliedFailsTheWholeTransaction(_ subject: Subject) async throws {
        let files = try #require(subject.files)
        try await prepareUnchanged(subject)
        await #expect(throws: FileStoreError.alreadyExists(path: "kept.txt")) {
            try await StorageTransaction.run { transaction in
                try stageOneWriteOfEachKind(subject, in: transaction)
                try transaction.save(Data("x".utf8), to: "kept.txt", overwrite: false, in: files)
            }
        }
        try await expectPrepared(subject)
        await #expect(throws: FileStoreError.notFound(path: "missing.txt")) {
            try await StorageTransaction.run { transaction in
                try stageOneWriteOfEachKind(subject, in: transaction)
                try transaction.delete("missing.txt", in: files)
            }
        }
        try await expectPrepared(subject)
        await #expect(throws: FileStoreError.writeFailed(path: "kept.txt/inside", reason: .parentIsFile)) {
            try await StorageTransaction.run { transaction in
                try stageOneWriteOfEachKind(subject, in: transaction)
                try transaction.save(Data("x".utf8), to: "kept.txt/inside", in: files)
            }
        }
        try await expectPrepared(subject)
    }

    private static func keysAreWrittenAsKVStoringWritesThem(_ subject: Subject) async throws {
        let store = try #require(subject.keyValues)
        let renamed = KVKey<Int>("forge.transaction.renamed", migrations: .renamed(from: "forge.transaction.old"))
        try await store.set(KVKey<Int>("forge.transaction.old"), value: 1)
        try await StorageTransaction.run { transaction in
            try transaction.remove(renamed, in: store)
        }
        #expect(try await store.contains(renamed) == false, "a removal removes the key's older names too")
        #expect(try await store.keys() == [])

        try await store.set(first, value: 1)
        await #expect(throws: KVStoreError.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(second, value: 2, in: store)
                try transaction.set(KVKey<Double>("forge.transaction.nan"), value: .nan, in: store)
            }
        }
        #expect(try await store.keys() == [first.key], "a value that cannot be encoded applies nothing")
    }

    private static func anEndedTransactionTakesNoWrite(_ subject: Subject) async throws {
        let ended = try await StorageTransaction.run { $0 }
        try await expectUnchanged(subject, throwing: StorageTransactionError.transactionEnded) {
            try stageOneWriteOfEachKind(subject, in: ended)
        }
        // An empty transaction applies nothing and succeeds.
        try await StorageTransaction.run { _ in }
        try await expectPrepared(subject)
    }
}
