import Configuration
@testable import ForgeConfiguration
import ForgeKVStore
import ForgePostgres
import Testing

/// Two servers on one PostgreSQL database, each with its own client, store and provider: a flag set through one is
/// seen by the other's reader.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresConfigProviderTests {
    let flag = KVKey<Bool>("flags.features.newCheckout")
    let flagKey: AbsoluteConfigKey = ["features", "newCheckout"]

    @Test func aFlagSetOnOneServerReachesTheOtherServersReaderWatch() async throws {
        try await TestServer.withStores(2) { stores in
            let (first, second) = (stores[0], stores[1])
            let provider = ForgeConfigProvider(store: second, keyPrefix: "flags")
            try await provider.load()
            let config = ConfigReader(provider: provider)
            try await config.watchBool(forKey: "features.newCheckout", default: false) { updates in
                var values = updates.makeAsyncIterator()
                #expect(try await values.next() == false)
                try await first.set(flag, value: true)
                while let value = try await values.next(), !value {}
                try await first.set(flag, value: false)
                while let value = try await values.next(), value {}
            }
            #expect(config.bool(forKey: "features.newCheckout", default: true) == false)
        }
    }

    @Test func runKeepsTheOtherServersSnapshotCurrent() async throws {
        try await TestServer.withStores(2) { stores in
            let (first, second) = (stores[0], stores[1])
            try await first.set(flag, value: false)
            let provider = ForgeConfigProvider(store: second, keyPrefix: "flags")
            let config = ConfigReader(provider: provider)
            try await withRunning(provider) {
                try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(false) }
                try await first.set(flag, value: true)
                try await provider.awaitSnapshot { $0.content(flagKey, .bool) == .bool(true) }
                #expect(config.bool(forKey: "features.newCheckout", default: false))

                // A key first set after the load: followed once the reader asked for it.
                #expect(config.int(forKey: "limits.maxItems", default: 10) == 10)
                try await first.set(KVKey<Int>("flags.limits.maxItems"), value: 25)
                try await provider.awaitSnapshot { $0.content(["limits", "maxItems"], .int) == .int(25) }
                #expect(config.int(forKey: "limits.maxItems", default: 10) == 25)

                try await first.remove(flag)
                try await provider.awaitSnapshot { $0.content(flagKey, .bool) == nil }
            }
        }
    }

    @Test func aWrongTypedValueSetOnAnotherServerIsATypedError() async throws {
        try await TestServer.withStores(2) { stores in
            try await stores[0].set(KVKey<String>(flag.key), value: "yes")
            let provider = ForgeConfigProvider(store: stores[1], keyPrefix: "flags")
            try await provider.load()
            let expected = ForgeConfigError.valueNotConvertible(key: flag.key, type: .bool, stored: "a string")
            #expect(throws: expected) { try provider.value(forKey: flagKey, type: .bool) }
            await #expect(throws: expected) { try await provider.fetchValue(forKey: flagKey, type: .bool) }
        }
    }
}
