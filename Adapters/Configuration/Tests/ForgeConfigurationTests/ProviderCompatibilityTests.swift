import Configuration
import ConfigurationTesting
import ForgeConfiguration
import ForgeKVStore
import ForgePostgres
import Testing

/// swift-configuration's own compatibility suite, on the provider over the in-memory twin and over PostgreSQL.
@Suite(.timeLimit(.minutes(1)))
struct ProviderCompatibilityTests {
    @Test func theProviderOverTheInMemoryTwinPassesTheSuite() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        try await CompatibilityValues.write(to: store, prefix: "compat")
        let provider = ForgeConfigProvider(store: store, keyPrefix: "compat")
        try await provider.load()
        try await ProviderCompatTest(provider: provider).runTest()
    }

    @Test(.enabled(if: TestServer.url != nil, TestServer.skipReason))
    func theProviderOverPostgreSQLPassesTheSuite() async throws {
        try await TestServer.withStores { stores in
            try await CompatibilityValues.write(to: stores[0], prefix: "compat")
            let provider = ForgeConfigProvider(store: stores[0], keyPrefix: "compat")
            try await provider.load()
            try await ProviderCompatTest(provider: provider).runTest()
        }
    }
}
