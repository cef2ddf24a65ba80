import ForgeCore
import ForgeCrypt
import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing

/// The transaction suite catches runners that are not all or nothing, not in order, or broken in one of their two
/// forms: each broken runner below fails at least one of its checks on every run (none of them depends on how two
/// tasks interleave), and the correct runner passes.
struct TransactionMutationTests {
    @Test(arguments: TransactionMutant.allCases)
    func theSuiteCatchesABrokenRunner(_ mutant: TransactionMutant) async {
        let failures = await MutationHarness.failures {
            await TransactionConformance.run { MutantStores(mutant).subject }
        }
        #expect(!failures.isEmpty, "the suite passed a runner that \(mutant)")
    }

    @Test func theSuitePassesTheCorrectRunner() async {
        let failures = await MutationHarness.failures {
            await TransactionConformance.run { MutantStores(nil).subject }
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
    /// Applies each store's writes all or none, one store after the other: a failure in a later store leaves the
    /// earlier stores' writes.
    case commitsStoreByStore
    /// Applies correctly when awaited, and applies nothing (and succeeds) when called synchronously.
    case dropsSynchronousCommits

    var description: String { rawValue }
}

/// A key-value store and a secret store over in-memory ones, sharing a runner that applies a transaction as `mutant`
/// gets it wrong (or, for nil, right: under both stores' locks, undone when a change fails).
private struct MutantStores {
    let keyValues: MutantKVStore
    let secrets: MutantCrypt

    init(_ mutant: TransactionMutant?) {
        let runner = MutantRunner(mutant: mutant)
        keyValues = MutantKVStore(runner)
        secrets = MutantCrypt(runner)
    }

    var subject: TransactionConformance.Subject {
        .init(keyValues: keyValues, secrets: secrets)
    }
}

/// A store of the mutant runner: its contents can be saved and put back, and changed while its lock is held.
private protocol MutantParticipant: AnyObject, Sendable {
    /// Held by every call of the store and, by the correct runner, across a whole transaction. Its state is unused;
    /// it is not `Void`, whose zero-sized storage shares the lock's address and makes ThreadSanitizer report a race
    /// between taking the lock and holding it.
    var lock: LockedState<Bool> { get }
    func contents() throws -> [(String, Data)]
    func restore(_ contents: [(String, Data)]) throws
    /// Applies `change` to the store; the caller holds ``lock``.
    func apply(_ change: StagedWrite.Change, ignoringFailures: Bool) throws
}

private final class MutantRunner: TransactionRunner {
    let mutant: TransactionMutant?

    init(mutant: TransactionMutant?) {
        self.mutant = mutant
    }

    func commit(_ writes: [StagedWrite]) throws {
        if mutant == .dropsSynchronousCommits { return }
        try apply(writes)
    }

    func commitAsynchronously(_ writes: [StagedWrite]) async throws {
        try apply(writes)
    }

    private func apply(_ writes: [StagedWrite]) throws {
        var writes = writes.map { (store: $0.store as? any MutantParticipant, change: $0.change) }
        switch mutant {
        case .removesFirst: writes = writes.filter { $0.change.isRemoval } + writes.filter { !$0.change.isRemoval }
        case .dropsTheLastWrite: writes.removeLast()
        default: break
        }
        var stores: [any MutantParticipant] = []
        for case let store? in writes.map(\.store) where !stores.contains(where: { $0 === store }) {
            stores.append(store)
        }
        if mutant == .commitsStoreByStore {
            for store in stores {
                try applyUndoingOnFailure(writes.filter { $0.store === store }, to: [store])
            }
        } else {
            try applyUndoingOnFailure(writes, to: stores)
        }
    }

    /// Applies `writes` while holding every lock of `stores`, and puts `stores` back when one fails (unless the
    /// mutant keeps what it applied).
    private func applyUndoingOnFailure(
        _ writes: [(store: (any MutantParticipant)?, change: StagedWrite.Change)],
        to stores: [any MutantParticipant]
    ) throws {
        try Self.locking(stores[...]) {
            let before = try stores.map { try $0.contents() }
            do {
                for write in writes {
                    try write.store?.apply(write.change, ignoringFailures: mutant == .ignoresAFailure)
                }
            } catch {
                if mutant != .keepsWritesBeforeAFailure {
                    for (store, contents) in zip(stores, before) { try store.restore(contents) }
                }
                throw error
            }
        }
    }

    private static func locking(_ stores: ArraySlice<any MutantParticipant>, _ body: () throws -> Void) throws {
        guard let first = stores.first else { return try body() }
        try first.lock.withLock { _ in try locking(stores.dropFirst(), body) }
    }
}

private final class MutantKVStore: KVStoring, KVBackend, AsyncKVStoring, TransactionalStore, MutantParticipant {
    let base = InMemoryKVStore()
    let lock = LockedState(false)
    let runner: MutantRunner

    init(_ runner: MutantRunner) {
        self.runner = runner
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

    func contents() throws -> [(String, Data)] {
        try base.storedNames().compactMap { name in try base.storedValue(named: name).map { (name, $0.json) } }
    }
    func restore(_ contents: [(String, Data)]) throws {
        try base.removeAll()
        for (name, json) in contents { try base.store(KVStoredValue(json: json), named: name) }
    }
    func apply(_ change: StagedWrite.Change, ignoringFailures: Bool) throws {
        switch change {
        case .storeValue(let json, let name, let expiresAt):
            try base.store(KVStoredValue(json: json, expiresAtMilliseconds: expiresAt), named: name)
        case .removeValue(let name): try base.removeValue(named: name)
        case .fail(let error): if !ignoringFailures { throw error }
        default: throw StorageTransactionError.changeOfAnotherKind(store: "MutantKVStore")
        }
    }
}

private final class MutantCrypt: CryptStoring, CryptBackend, AsyncCryptStoring, TransactionalStore, MutantParticipant {
    let base = InMemoryCrypt()
    let lock = LockedState(false)
    let runner: MutantRunner

    init(_ runner: MutantRunner) {
        self.runner = runner
    }

    var transactionRunner: any TransactionRunner { runner }
    func storedSecret(named name: String) throws -> Data? {
        try lock.withLock { _ in try base.storedSecret(named: name) }
    }
    func store(_ secret: Data, named name: String) throws {
        try lock.withLock { _ in try base.store(secret, named: name) }
    }
    func removeSecret(named name: String) throws { try lock.withLock { _ in try base.removeSecret(named: name) } }
    func storedNames() throws -> [String] { try lock.withLock { _ in try base.storedNames() } }
    func removeAll() throws { try lock.withLock { _ in try base.removeAll() } }

    func contents() throws -> [(String, Data)] {
        try base.storedNames().compactMap { name in try base.storedSecret(named: name).map { (name, $0) } }
    }
    func restore(_ contents: [(String, Data)]) throws {
        try base.removeAll()
        for (name, secret) in contents { try base.store(secret, named: name) }
    }
    func apply(_ change: StagedWrite.Change, ignoringFailures: Bool) throws {
        switch change {
        case .storeSecret(let secret, let name): try base.store(secret, named: name)
        case .removeSecret(let name): try base.removeSecret(named: name)
        case .fail(let error): if !ignoringFailures { throw error }
        default: throw StorageTransactionError.changeOfAnotherKind(store: "MutantCrypt")
        }
    }
}

extension StagedWrite.Change {
    fileprivate var isRemoval: Bool {
        switch self {
        case .removeValue, .removeSecret, .removeFile: true
        default: false
        }
    }
}
