internal import ForgeCrypt
internal import ForgeFileStore
internal import ForgeKVStore
internal import ForgeCore
internal import Foundation
internal import Testing

/// The check that a reader never finds a transaction half applied.
extension TransactionConformance {
    /// How many transactions the writer runs while the reader reads.
    static let isolationRounds = 60

    /// A writer moves values, files and secrets between two groups of names, each move one transaction, while a
    /// reader lists the names again and again: every listing must find one group whole and the other empty.
    ///
    /// The moves alternate the order of their writes and removals, so a store that applies a transaction's changes one
    /// by one shows both groups in part (or both whole) while it applies one. The check passes or fails on what the
    /// reader finds, never on timing; the more the two tasks interleave, the likelier a store that is not isolated
    /// fails it.
    static func aReaderNeverSeesHalfOfATransaction(_ subject: Subject) async throws {
        try await StorageTransaction.run { transaction in
            for index in 0..<groupSize { try stageWrite(index, ofGroup: "a", round: 0, subject, in: transaction) }
        }
        let finished = LockedState(false)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { finished.withLock { $0 = true } }
                for round in 1...isolationRounds {
                    // A test's time limit cancels the check: it ends rather than run on.
                    try Task.checkCancellation()
                    try await StorageTransaction.run { transaction in
                        try stageMove(round, subject, in: transaction)
                    }
                    await Task.yield()
                }
            }
            group.addTask {
                var reads = 0
                while reads == 0 || !finished.withLock({ $0 }) {
                    try Task.checkCancellation()
                    try await expectOneWholeGroup(subject)
                    reads += 1
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        try await expectOneWholeGroup(subject)
    }

    /// How many names of each kind a move writes and removes.
    static let groupSize = 8

    /// Stages the move of `round`: odd rounds move group "a" to group "b", even rounds back; rounds 1 and 0 (mod 4)
    /// write before they remove, rounds 2 and 3 remove before they write.
    private static func stageMove(_ round: Int, _ subject: Subject, in transaction: StorageTransaction) throws {
        let (from, to) = round % 2 == 1 ? ("a", "b") : ("b", "a")
        let writeFirst = round % 4 == 1 || round % 4 == 0
        for step in writeFirst ? ["write", "remove"] : ["remove", "write"] {
            for index in 0..<groupSize {
                if step == "write" {
                    try stageWrite(index, ofGroup: to, round: round, subject, in: transaction)
                } else {
                    try stageRemoval(index, ofGroup: from, subject, in: transaction)
                }
            }
        }
    }

    private static func stageWrite(
        _ index: Int,
        ofGroup group: String,
        round: Int,
        _ subject: Subject,
        in transaction: StorageTransaction
    ) throws {
        let name = "forge.\(group).\(index)"
        if let store = subject.keyValues { try transaction.set(KVKey<Int>(name), value: round, in: store) }
        if let files = subject.files { try transaction.save(Data("\(round)".utf8), to: name, in: files) }
        if let secrets = subject.secrets {
            try transaction.set("\(round)", for: CryptKey<String>(key: name), in: secrets)
        }
    }

    private static func stageRemoval(
        _ index: Int,
        ofGroup group: String,
        _ subject: Subject,
        in transaction: StorageTransaction
    ) throws {
        let name = "forge.\(group).\(index)"
        if let store = subject.keyValues { try transaction.remove(KVKey<Int>(name), in: store) }
        if let files = subject.files { try transaction.delete(name, in: files) }
        if let secrets = subject.secrets { try transaction.delete(CryptKey<String>(key: name), in: secrets) }
    }

    /// Expects one listing of each store to hold every name of one group and none of the other.
    private static func expectOneWholeGroup(_ subject: Subject) async throws {
        if let store = subject.keyValues { expectOneWholeGroup(in: try await store.keys()) }
        if let files = subject.files { expectOneWholeGroup(in: try await files.list(in: "")) }
        if let secrets = subject.secrets { expectOneWholeGroup(in: try await secrets.keys()) }
    }

    private static func expectOneWholeGroup(in names: [String]) {
        let a = names.filter { $0.hasPrefix("forge.a.") }.count
        let b = names.filter { $0.hasPrefix("forge.b.") }.count
        #expect([a, b].sorted() == [0, groupSize], "a listing found \(a) names of one group and \(b) of the other")
    }
}
