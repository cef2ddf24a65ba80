internal import ForgeCrypt
internal import ForgeFileStore
internal import ForgeKVStore
internal import Foundation
internal import Testing

/// The state the checks prepare, the writes they stage, and what they expect to find after a transaction applied
/// nothing.
extension TransactionConformance {
    /// Stores one value of each kind the subject has: the state a transaction that fails must leave.
    static func prepareUnchanged(_ subject: Subject) async throws {
        if let store = subject.keyValues { try await store.set(first, value: 1) }
        if let files = subject.files { try await files.save(Data("kept".utf8), to: "kept.txt", overwrite: true) }
        if let secrets = subject.secrets { try await secrets.set("kept", for: token) }
    }

    /// Expects the stores to hold what ``prepareUnchanged(_:)`` stored, and nothing else.
    static func expectPrepared(_ subject: Subject) async throws {
        if let store = subject.keyValues {
            #expect(try await store.keys() == [first.key], "a transaction that failed added or removed no key")
            #expect(try await store.value(for: first) == 1, "a transaction that failed changed no value")
        }
        if let files = subject.files {
            #expect(try await files.list(in: "") == ["kept.txt"], "a transaction that failed added or removed no file")
            #expect(try await files.load("kept.txt") == Data("kept".utf8), "a transaction that failed changed no file")
            #expect(try await files.totalSize() == 4, "a transaction that failed left the store's size as it was")
        }
        if let secrets = subject.secrets {
            #expect(try await secrets.keys() == [token.key], "a transaction that failed added or removed no secret")
            #expect(try await secrets.get(token) == "kept", "a transaction that failed changed no secret")
        }
    }

    /// Prepares the stores, runs `attempt`, which must throw `expected`, and expects the stores as they were.
    static func expectUnchanged<Failure: Error & Equatable>(
        _ subject: Subject,
        throwing expected: Failure,
        _ attempt: () async throws -> Void
    ) async throws {
        try await prepareUnchanged(subject)
        await #expect(throws: expected) { try await attempt() }
        try await expectPrepared(subject)
    }

    /// Stages writes of every kind the subject has that would change what ``prepareUnchanged(_:)`` stored: a value, a
    /// file and a secret replaced, and one of each added.
    static func stageOneWriteOfEachKind(_ subject: Subject, in transaction: StorageTransaction) throws {
        if let store = subject.keyValues {
            try transaction.set(first, value: 2, in: store)
            try transaction.set(third, value: 3, in: store)
        }
        if let files = subject.files {
            try transaction.save(Data("changed".utf8), to: "kept.txt", in: files)
            try transaction.save(Data("staged".utf8), to: "staged.txt", in: files)
        }
        if let secrets = subject.secrets {
            try transaction.set("changed", for: token, in: secrets)
            try transaction.set("staged", for: otherToken, in: secrets)
        }
    }

    /// Expects the stores to hold what ``stageOneWriteOfEachKind(_:in:)`` staged over what ``prepareUnchanged(_:)``
    /// stored.
    static func expectStagedWritesApplied(_ subject: Subject) async throws {
        if let store = subject.keyValues {
            #expect(try await store.keys() == [first.key, third.key])
            #expect(try await store.value(for: first) == 2)
        }
        if let files = subject.files {
            #expect(try await files.list(in: "") == ["kept.txt", "staged.txt"])
            #expect(try await files.load("kept.txt") == Data("changed".utf8))
        }
        if let secrets = subject.secrets {
            #expect(try await secrets.keys() == [otherToken.key, token.key].sorted())
            #expect(try await secrets.get(token) == "changed")
        }
    }
}
