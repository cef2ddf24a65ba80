import Configuration
@testable import ForgeConfiguration
import ForgeKVStore
import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// The provider over the in-memory twin: keys, the snapshot, fetches, watches and the service.
@Suite(.timeLimit(.minutes(1)))
struct ForgeConfigProviderTests {
    let store = ReactiveKVStore(InMemoryKVStore())
    let flag = KVKey<Bool>("flags.features.newCheckout")
    let flagKey: AbsoluteConfigKey = ["features", "newCheckout"]

    @Test func keysAreTheirComponentsJoinedWithDotsUnderThePrefix() {
        let prefixed = ForgeConfigProvider(store: store, keyPrefix: "flags")
        #expect(prefixed.storeKey(for: flagKey) == "flags.features.newCheckout")
        #expect(prefixed.storeKey(for: AbsoluteConfigKey(["port"], context: ["region": "eu"])) == "flags.port")
        #expect(ForgeConfigProvider(store: store).storeKey(for: flagKey) == "features.newCheckout")
        #expect(ForgeConfigProvider(store: store, keyPrefix: "").storeKey(for: flagKey) == "features.newCheckout")
    }

    @Test func aLoadReadsTheKeysUnderThePrefixOnly() async throws {
        try store.set(flag, value: true)
        try store.set(KVKey<Bool>("other.features.newCheckout"), value: false)
        try store.set(KVKey<Int>("flagsmith.limit"), value: 3)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        #expect(try provider.value(forKey: flagKey, type: .bool).value == nil)  // not loaded yet

        try await provider.load()
        #expect(try provider.value(forKey: flagKey, type: .bool) == LookupResult(encodedKey: flag.key, value: true))
        #expect(try provider.value(forKey: ["limit"], type: .int).value == nil)
        #expect(provider.description == "ForgeConfigProvider[1 values]")
    }

    @Test func aMissingKeyAndANullHaveNoValue() async throws {
        try store.set(KVKey<Int?>("flags.optional"), value: nil)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        #expect(
            try provider.value(forKey: ["absent"], type: .string)
                == LookupResult(encodedKey: "flags.absent", value: nil)
        )
        #expect(try provider.value(forKey: ["optional"], type: .int).value == nil)
        #expect(try await provider.fetchValue(forKey: ["absent"], type: .string).value == nil)
    }

    @Test func aWrongTypedValueIsATypedErrorNamingTheKey() async throws {
        try store.set(KVKey<String>(flag.key), value: "yes")
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        let expected = ForgeConfigError.valueNotConvertible(key: flag.key, type: .bool, stored: "a string")
        #expect(throws: expected) { try provider.value(forKey: flagKey, type: .bool) }
        #expect(throws: expected) { try provider.snapshot().value(forKey: flagKey, type: .bool) }
        await #expect(throws: expected) { try await provider.fetchValue(forKey: flagKey, type: .bool) }
        try await provider.watchValue(forKey: flagKey, type: .bool) { updates in
            var iterator = updates.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(throws: expected) { try first.get() }
        }
        #expect(
            expected.errorDescription == "The value stored under 'flags.features.newCheckout' is a string, not a bool."
        )

        // A reader answers its default, or throws the error for a required value.
        let config = ConfigReader(provider: provider)
        #expect(config.bool(forKey: "features.newCheckout", default: false) == false)
        #expect(throws: expected) { try config.requiredBool(forKey: "features.newCheckout") }
        #expect(try config.requiredString(forKey: "features.newCheckout") == "yes")
    }

    @Test func secretValuesAreMarkedByTheirConfigurationKey() async throws {
        try store.set(KVKey<String>("app.database.password"), value: "hunter2")
        try store.set(KVKey<String>("app.database.host"), value: "db.local")
        let provider = ForgeConfigProvider(
            store: store,
            keyPrefix: "app",
            secretsSpecifier: .specific(["database.password"])
        )
        try await provider.load()
        #expect(try provider.value(forKey: ["database", "password"], type: .string).value?.isSecret == true)
        #expect(try provider.value(forKey: ["database", "host"], type: .string).value?.isSecret == false)
    }

    @Test func aFetchReadsTheStoreAndUpdatesTheSnapshot() async throws {
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        try store.set(flag, value: true)
        #expect(try provider.value(forKey: flagKey, type: .bool).value == nil)
        #expect(try await provider.fetchValue(forKey: flagKey, type: .bool).value == true)
        #expect(try provider.value(forKey: flagKey, type: .bool).value == true)
    }

    @Test func aLoadAgainTakesWhatChangedAndDropsWhatWasRemoved() async throws {
        try store.set(flag, value: true)
        try store.set(KVKey<Int>("flags.limit"), value: 3)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        let before = provider.snapshot()
        try store.remove(flag)
        try store.set(KVKey<Int>("flags.limit"), value: 4)
        try await provider.load()
        #expect(try provider.value(forKey: flagKey, type: .bool).value == nil)
        #expect(try provider.value(forKey: ["limit"], type: .int).value == 4)
        // A snapshot taken before keeps its values.
        #expect(try before.value(forKey: ["limit"], type: .int).value == 3)
        #expect(try before.value(forKey: flagKey, type: .bool).value == true)
    }

    @Test func aChangeInTheStoreReachesWatchValueAndTheSnapshot() async throws {
        try store.set(flag, value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        try await provider.watchValue(forKey: flagKey, type: .bool) { updates in
            var values = updates.makeAsyncIterator()
            #expect(try await values.next()?.get().value == false)
            try store.set(flag, value: true)
            while let update = try await values.next(), try update.get().value != true {}
            #expect(try provider.value(forKey: flagKey, type: .bool).value == true)
            try store.remove(flag)
            while let update = try await values.next(), try update.get().value != nil {}
            #expect(try provider.value(forKey: flagKey, type: .bool).value == nil)
        }
    }

    @Test func aReaderWatchSeesEachChange() async throws {
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        let config = ConfigReader(provider: provider)
        try await config.watchInt(forKey: "limits.maxItems", default: 10) { updates in
            var values = updates.makeAsyncIterator()
            #expect(try await values.next() == 10)
            try store.set(KVKey<Int>("flags.limits.maxItems"), value: 20)
            while let value = try await values.next(), value != 20 {}
            try store.set(KVKey<Int>("flags.limits.maxItems"), value: 30)
            while let value = try await values.next(), value != 30 {}
        }
        #expect(config.int(forKey: "limits.maxItems", default: 10) == 30)
    }

    @Test func watchSnapshotEmitsASnapshotAfterAChange() async throws {
        try store.set(flag, value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        try await provider.watchSnapshot { snapshots in
            var iterator = snapshots.makeAsyncIterator()
            #expect(try await iterator.next()?.value(forKey: flagKey, type: .bool).value == false)
            try store.set(flag, value: true)
            while let snapshot = try await iterator.next(),
                try snapshot.value(forKey: flagKey, type: .bool).value != true
            {}
        }
    }

    @Test func runLoadsAndFollowsTheKeysItFound() async throws {
        try store.set(flag, value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await withRunning(provider) {
            try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(false) }
            try store.set(flag, value: true)
            try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(true) }
        }
    }

    @Test func runFollowsAKeySetAfterTheLoadOnceAReaderAsksForIt() async throws {
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await provider.load()
        let config = ConfigReader(provider: provider)
        try await withRunning(provider) {
            #expect(config.bool(forKey: "features.newCheckout", default: false) == false)
            try store.set(flag, value: true)
            try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(true) }
            #expect(config.bool(forKey: "features.newCheckout", default: false) == true)
        }
    }

    @Test func runEndsWhenItsServiceGroupShutsDownGracefully() async throws {
        try store.set(flag, value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await provider.run() }
                try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(false) }
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        // The snapshot keeps the last values it saw.
        #expect(try provider.value(forKey: flagKey, type: .bool).value == false)
    }

    @Test func runThrowsTheStoresErrorWhenItCannotLoad() async throws {
        let provider = ForgeConfigProvider(store: UnlistableStore(), keyPrefix: "flags")
        await #expect(throws: KVStoreError.listFailed(underlying: .ioError)) { try await provider.run() }
    }
}

/// A store whose keys cannot be listed.
private struct UnlistableStore: AsyncKVStreaming {
    let base = ReactiveKVStore(InMemoryKVStore())

    func keys() async throws -> [String] { throw KVStoreError.listFailed(underlying: .ioError) }
    func get<T: Codable & Sendable>(_ key: KVKey<T>) async throws -> T? { base.get(key) }
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
