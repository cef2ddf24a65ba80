import Configuration
import ForgeConfiguration
import ForgeKVStore
import Synchronization
import Testing

/// A fetch or a load that read a key before its stream brought a newer value leaves the newer value in the snapshot.
@Suite(.timeLimit(.minutes(1)))
struct ProviderRaceTests {
    let flag = KVKey<Bool>("flags.features.newCheckout")
    let flagKey: AbsoluteConfigKey = ["features", "newCheckout"]

    @Test(arguments: [false, true])
    func aReadOverTakenByTheKeysStreamDoesNotUndoIt(byLoad: Bool) async throws {
        let store = GatedStore()
        try store.base.set(flag, value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()

        try await provider.watchValue(forKey: flagKey, type: .bool) { updates in
            var values = updates.makeAsyncIterator()
            #expect(try await values.next()?.get().value == false)
            store.closeGate(of: flag.key)
            async let read: Void =
                byLoad ? provider.load() : { _ = try await provider.fetchValue(forKey: flagKey, type: .bool) }()
            await store.waitUntilHeld()  // the read has read `false`, and waits
            try store.base.set(flag, value: true)
            while let update = try await values.next(), try update.get().value != true {}
            store.openGate()
            try await read
        }
        #expect(try provider.value(forKey: flagKey, type: .bool).value == true)
    }
}

/// A store whose reads of one key, once its gate is closed, read the value and then wait until the gate opens; its
/// streams are those of the store beneath, never held.
private final class GatedStore: AsyncKVStreaming {
    let base = ReactiveKVStore(InMemoryKVStore())
    private let gate = Mutex<(key: String?, opened: AsyncStream<Void>?, openGate: AsyncStream<Void>.Continuation?)>(
        (nil, nil, nil)
    )
    private let held: AsyncStream<Void>
    private let holding: AsyncStream<Void>.Continuation

    init() {
        (held, holding) = AsyncStream<Void>.makeStream()
    }

    /// Holds the next read of `key` after it has read the value, until ``openGate()``.
    func closeGate(of key: String) {
        let (opened, openGate) = AsyncStream<Void>.makeStream()
        gate.withLock { $0 = (key, opened, openGate) }
    }

    /// Lets the held read return.
    func openGate() {
        gate.withLock { $0.openGate?.finish() }
    }

    /// Waits until a read is held.
    func waitUntilHeld() async {
        for await _ in held { return }
    }

    func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? {
        let value = base.get(key)
        let opened = gate.withLock { gate -> AsyncStream<Void>? in
            guard gate.key == key.key else { return nil }
            defer { gate.key = nil }
            return gate.opened
        }
        if let opened {
            holding.yield()
            for await _ in opened {}
        }
        return value
    }

    func keys() async throws -> [String] { try base.keys() }
    func value<T: Codable & Sendable>(for key: KVKey<T>) async throws -> T? { try base.value(for: key) }
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) async throws { try base.set(key, value: value) }
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) async throws { try base.remove(key) }
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> Bool { base.contains(key) }
    func removeAll() async throws { try base.removeAll() }
    func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T { base.get(key) }
    func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? { try base.value(for: key) }
    func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        try base.set(key, value: value)
    }
    func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws { try base.remove(key) }
    func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool { base.contains(key) }
    func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> { base.stream(key) }
}
