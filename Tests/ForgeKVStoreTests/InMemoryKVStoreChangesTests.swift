import Synchronization
import ForgeKVStore
import ForgeTestSupport
import Testing

/// An `InMemoryKVStore` tells of the changes made to it, so a `ReactiveKVStore` over it streams writes made to the
/// store itself and by transactions, as one over a disk or SQLite store does.
struct InMemoryKVStoreChangesTests {
    let key = KVKey<Int>("taskflow.taskCount")

    @Test func writesToTheStoreItselfReachAWrappersStream() async throws {
        let store = InMemoryKVStore()
        let reactive = ReactiveKVStore(store)
        let values = StreamReader(reactive.stream(key))
        #expect(await values.next() == .some(nil))
        try store.set(key, value: 1)
        #expect(await values.next() == .some(1))
        try store.remove(key)
        #expect(await values.next() == .some(nil))
        try store.set(key, value: 2)
        #expect(await values.next() == .some(2))
        try store.removeAll()
        #expect(await values.next() == .some(nil))
    }

    @Test func aTransactionReachesTheStreamOnceApplied() async throws {
        let store = InMemoryKVStore()
        let reactive = ReactiveKVStore(store)
        let values = StreamReader(reactive.stream(key))
        #expect(await values.next() == .some(nil))
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await StorageTransaction.run { transaction in
                try transaction.set(key, value: 5, in: store)
                try transaction.stageFailure(Refused(), in: store)
            }
        }
        try await StorageTransaction.run { transaction in
            try transaction.set(key, value: 6, in: store)
        }
        #expect(await values.next() == .some(6), "the undone transaction's 5 is never streamed")
    }

    @Test func anEndedObservationIsToldNothing() throws {
        let store = InMemoryKVStore()
        let told = Told()
        let observation = store.observeChanges { told.append($0) }
        try store.set(key, value: 1)
        observation.end()
        try store.set(key, value: 2)
        #expect(told.names == [key.key])
    }
}

/// The names an observer was told of.
private final class Told: Sendable {
    private let state = Mutex<[String?]>([])
    var names: [String?] { state.withLock { $0 } }
    func append(_ name: String?) { state.withLock { $0.append(name) } }
}
