internal import ForgeKVStore
internal import Foundation
internal import GRDB

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
@preconcurrency internal import Glibc
#endif

/// The queue of a database's writes: the writes that arrive while a commit is in flight go into the next transaction
/// together (group commit), so that many writers share one commit, and one flush of the log at `.flushed`.
///
/// The first caller to find no commit under way leads: it takes every write queued, commits them, wakes their callers
/// and hands the lead to the next caller waiting, if any, so that no caller runs others' commits after its own. A
/// caller returns once the commit holding its write is done (flushed when any write of it is `.flushed`). In a commit of
/// several writes each runs in a savepoint of its own: one that fails is rolled back alone and fails its caller only,
/// and the others commit without it. A write alone is committed as before: one statement by itself, or a transaction.
final class GroupCommit: @unchecked Sendable {
    // Safe to share: `queue`, `isLeading` and every queued write's `outcome` are read and changed only under
    // `condition`; a write's `apply` runs on the leader's thread while its caller waits for it under `condition`.

    /// One write queued: its statements and what the database needs to know of them.
    ///
    /// Safe to share: ``outcome`` is read and changed only under the queue's lock, and ``apply`` runs on the thread
    /// that leads the commit while the write's caller waits for it.
    final class Write: @unchecked Sendable {
        /// The durability its caller asked for: a commit is flushed when one of its writes is `.flushed`.
        let durability: Durability
        /// The key-value rows it changes; nil when it may change any.
        let keys: [ReadCache.Key]?
        /// Whether it is one statement, which SQLite commits atomically by itself when the write is alone.
        let isOneStatement: Bool
        /// Runs its statements on the writer connection.
        let apply: (Database) throws -> Void
        /// Where it stands; under the queue's lock.
        fileprivate var outcome = Outcome.waiting

        init(
            durability: Durability,
            keys: [ReadCache.Key]?,
            isOneStatement: Bool,
            apply: @escaping (Database) throws -> Void
        ) {
            self.durability = durability
            self.keys = keys
            self.isOneStatement = isOneStatement
            self.apply = apply
        }
    }

    /// Where a queued write stands.
    fileprivate enum Outcome {
        case waiting
        case leading
        case committed
        case failed(any Error)
    }

    private let condition = NSCondition()
    private var queue: [Write] = []
    private var isLeading = false
    /// The thread that commits the group in flight: a write it starts from inside a write's statements (a callback)
    /// would wait for itself.
    private var leader: pthread_t?

    /// How many writes wait for a commit to take them: for a test that queues writes behind a commit in flight.
    var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Queues `write` and returns once the commit holding it is done; `commit` commits a group of writes in order and
    /// returns, for each, nil or the error it failed with.
    ///
    /// - Throws: What `write` failed with, or the failure of the commit that held it.
    func run(_ write: Write, commit: ([Write]) -> [(any Error)?]) throws {
        condition.lock()
        if let leader, pthread_equal(leader, pthread_self()) != 0 {
            condition.unlock()
            preconditionFailure("a write of a SQLiteDatabase was started from inside another write of it")
        }
        queue.append(write)
        if isLeading {
            while case .waiting = write.outcome { condition.wait() }
        } else {
            isLeading = true
            write.outcome = .leading
        }
        if case .leading = write.outcome {
            let group = queue
            queue.removeAll()
            leader = pthread_self()
            condition.unlock()
            let failures = commit(group)
            precondition(
                failures.count == group.count,
                "a commit gave \(failures.count) outcomes for \(group.count) writes"
            )
            condition.lock()
            leader = nil
            for (queued, failure) in zip(group, failures) {
                queued.outcome = failure.map(Outcome.failed) ?? .committed
            }
            if let next = queue.first {
                next.outcome = .leading
            } else {
                isLeading = false
            }
            condition.broadcast()
        }
        let outcome = write.outcome
        condition.unlock()
        if case .failed(let error) = outcome { throw error }
    }
}

extension GroupCommit {
    /// Commits `group` on the writer connection `db`, in order: a write alone as it is (one statement by itself, or in
    /// a transaction), several in one immediate transaction, each in a savepoint of its own.
    ///
    /// When SQLite rolls the whole transaction back by itself on a write's failure (it may on a full disk or an I/O
    /// error), the writes before it are gone too: that write fails, and the others are committed again without it.
    ///
    /// - Returns: For each write, nil or the error it failed with; every write has the error of a failed commit.
    static func commit(_ group: [Write], on db: Database) -> [(any Error)?] {
        do {
            if let write = group.first, group.count == 1 {
                if write.isOneStatement {
                    try write.apply(db)
                } else {
                    try db.inTransaction(.immediate) {
                        try write.apply(db)
                        return .commit
                    }
                }
                return [nil]
            }
            var failures: [(any Error)?] = []
            try db.inTransaction(.immediate) {
                for write in group {
                    do {
                        try db.inSavepoint {
                            try write.apply(db)
                            return .commit
                        }
                        failures.append(nil)
                    } catch {
                        guard db.isInsideTransaction else {
                            throw RolledBack(index: failures.count, error: error)
                        }
                        failures.append(error)
                    }
                }
                return .commit
            }
            return failures
        } catch let rolledBack as RolledBack {
            var others = group
            others.remove(at: rolledBack.index)
            var failures = commit(others, on: db)
            failures.insert(rolledBack.error, at: rolledBack.index)
            return failures
        } catch {
            return group.map { _ in error }
        }
    }

    /// The transaction of a group that SQLite rolled back by itself when the write at `index` failed with `error`.
    private struct RolledBack: Error {
        let index: Int
        let error: any Error
    }
}
