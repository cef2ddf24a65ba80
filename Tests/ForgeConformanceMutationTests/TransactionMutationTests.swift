import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import Testing

/// The transaction suite catches runners that are not all or nothing, or not in order: each broken runner below fails
/// at least one of its checks, on every run (none of them depends on how two tasks interleave).
struct TransactionMutationTests {
    @Test(arguments: TransactionMutant.allCases)
    func theSuiteCatchesABrokenRunner(_ mutant: TransactionMutant) async {
        let failures = await MutationHarness.failures {
            await TransactionConformance.run {
                TransactionConformance.Subject(keyValues: MutantTransactionalStore(mutant))
            }
        }
        #expect(!failures.isEmpty, "the suite passed a runner that \(mutant)")
    }

    @Test func theSuitePassesTheCorrectRunner() async {
        let failures = await MutationHarness.failures {
            await TransactionConformance.run {
                TransactionConformance.Subject(keyValues: MutantTransactionalStore(nil))
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

/// A way to get a transaction wrong.
enum TransactionMutant: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Applies the writes before a failure and leaves them.
    case keepsWritesBeforeAFailure
    /// Applies every removal before the writes.
    case removesFirst
    /// Applies the writes around a staged failure and succeeds.
    case ignoresAFailure
    /// Leaves out the last write.
    case dropsTheLastWrite

    var description: String { rawValue }
}

/// A key-value store over an in-memory one, whose runner applies a transaction as `mutant` gets it wrong (or, for
/// nil, right: under one lock, undone when a write fails).
private final class MutantTransactionalStore: KVStoring, KVBackend, AsyncKVStoring, TransactionalKVStore {
    let base = InMemoryKVStore()
    /// Held by every call and across a whole transaction, so that the correct runner is isolated.
    let lock = LockedState(())
    let runner: Runner

    init(_ mutant: TransactionMutant?) {
        runner = Runner(mutant: mutant)
    }

    var transactionRunner: any TransactionRunner { runner }
    func storedValue(named name: String) throws -> KVStoredValue? {
        try lock.withLock { _ in try base.storedValue(named: name) }
    }
    func store(_ value: KVStoredValue, named name: String) throws {
        try lock.withLock { _ in try base.store(value, named: name) }
    }
    func removeValue(named name: String) throws { try lock.withLock { _ in try base.removeValue(named: name) } }
    func storedNames() throws -> [String] { try lock.withLock { _ in try base.storedNames() } }
    func removeAll() throws { try lock.withLock { _ in try base.removeAll() } }

    final class Runner: TransactionRunner {
        let mutant: TransactionMutant?

        init(mutant: TransactionMutant?) {
            self.mutant = mutant
        }

        func commit(_ writes: [StagedWrite]) throws {
            var writes = writes
            switch mutant {
            case .removesFirst:
                writes = writes.filter(\.isRemoval) + writes.filter { !$0.isRemoval }
            case .dropsTheLastWrite:
                writes.removeLast()
            default:
                break
            }
            guard let store = writes.first?.store as? MutantTransactionalStore else { return }
            try store.lock.withLock { _ in
                let before = try store.base.storedNames().map { ($0, try store.base.storedValue(named: $0)) }
                do {
                    for write in writes { try apply(write.change, to: store.base) }
                } catch {
                    guard mutant == nil else { throw error }
                    try store.base.removeAll()
                    for (name, value) in before { if let value { try store.base.store(value, named: name) } }
                    throw error
                }
            }
        }

        private func apply(_ change: StagedWrite.Change, to base: InMemoryKVStore) throws {
            switch change {
            case .storeValue(let json, let name): try base.store(KVStoredValue(json: json), named: name)
            case .removeValue(let name): try base.removeValue(named: name)
            case .fail(let error): if mutant != .ignoresAFailure { throw error }
            default: throw StorageTransactionError.changeOfAnotherKind(store: "MutantTransactionalStore")
            }
        }
    }
}

extension StagedWrite {
    fileprivate var isRemoval: Bool {
        if case .removeValue = change { return true }
        return false
    }
}
