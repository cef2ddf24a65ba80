import Configuration
import ForgeConfiguration
import ForgeKVStore
import Foundation
import Synchronization
import Testing

/// A read of a key the provider follows (`fetchValue`, `load`) never puts into the snapshot a value that the key's
/// stream does not bring: a read between two quick writes may see a value the stream folds away.
struct FollowedKeyReadTests {
    static let key = KVKey<Int>("k")

    @Test(arguments: ["fetch", "load"])
    func aReadBetweenTwoWritesLeavesTheSnapshotToTheStream(read: String) async throws {
        let racing = RacingStore()
        let store = ReactiveKVStore(racing)
        try store.set(Self.key, value: 1)
        let provider = ForgeConfigProvider(store: store)
        try await provider.load()
        try await withRunning(provider) {
            try store.set(Self.key, value: 5)
            try await provider.awaitSnapshot { $0.content(["k"], .int) == .int(5) }
            try store.set(Self.key, value: 1)
            try await provider.awaitSnapshot { $0.content(["k"], .int) == .int(1) }

            racing.armed.withLock { $0 = true }  // the next read sees 2, written and overwritten by 1 around it
            if read == "fetch" {
                #expect(try await provider.fetchValue(forKey: ["k"], type: .int).value?.content == .int(2))
            } else {
                try await provider.load()
            }
            #expect(store.get(Self.key) == 1)
            #expect(
                provider.snapshot().content(["k"], .int) == .int(1),
                "the snapshot took a value the store no longer holds"
            )
        }
    }
}

/// An in-memory store whose next read of "k", once armed, runs between two writes of another server.
///
/// The read sees 2, and the store holds 1 again when it returns. Neither write is told to the provider's stream, as a stream that folds
/// them into one read of 1 tells nothing new.
private final class RacingStore: KVStoring, KVBackend {
    let inner = InMemoryKVStore()
    let armed = Mutex(false)

    func storedValue(named name: String) throws -> KVStoredValue? {
        let racing = armed.withLock { armed in
            defer { armed = false }
            return armed && name == "k"
        }
        guard racing else { return try inner.storedValue(named: name) }
        try inner.store(KVStoredValue(json: Data("2".utf8)), named: name)
        let seen = try inner.storedValue(named: name)
        try inner.store(KVStoredValue(json: Data("1".utf8)), named: name)
        return seen
    }
    func store(_ value: KVStoredValue, named name: String) throws { try inner.store(value, named: name) }
    func removeValue(named name: String) throws { try inner.removeValue(named: name) }
    func storedNames() throws -> [String] { try inner.storedNames() }
    func removeAll() throws { try inner.removeAll() }
}
