import ForgeKVStore
import ForgeStorageTesting
import Foundation
import Testing
import Vapor

/// The cache keeps any `Codable` value as its JSON: it reads back equal, as nil when asked for another type, and
/// setting nil removes it.
@Suite(.timeLimit(.minutes(1)))
struct CacheValueTests {
    /// A value with the kinds of JSON a cached value holds.
    struct Profile: Codable, Equatable, Sendable {
        var name: String
        var visits: Int
        var score: Double
        var joined: Date
        var tags: [String]
        var manager: String?
    }

    let profile = Profile(
        name: "Ada",
        visits: 42,
        score: 0.1,
        joined: Date(timeIntervalSince1970: 1_767_225_600.25),
        tags: ["admin", "beta"],
        manager: nil
    )

    @Test(arguments: Backend.available)
    func aValueReadsBackEqual(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("profile", to: profile)
                try await app.cache.set("count", to: 7)
                try await app.cache.set("flags", to: ["beta": true])
                #expect(try await app.cache.get("profile", as: Profile.self) == profile)
                #expect(try await app.cache.get("count", as: Int.self) == 7)
                #expect(try await app.cache.get("flags", as: [String: Bool].self) == ["beta": true])
                #expect(try await app.cache.get("missing", as: Int.self) == nil)

                // The store holds the value's own JSON, under the cache's prefix.
                #expect(try await stores[0].get(KVKey<Profile>("vapor.cache.profile")) == profile)
            }
        }
    }

    @Test(arguments: Backend.available)
    func aValueOfAnotherTypeReadsAsNil(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("count", to: "seven")
                #expect(try await app.cache.get("count", as: Int.self) == nil)
                #expect(try await app.cache.get("count", as: Profile.self) == nil)
                #expect(try await app.cache.get("count", as: String.self) == "seven")
            }
        }
    }

    @Test(arguments: Backend.available)
    func settingNilRemovesTheValue(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("count", to: 7)
                try await app.cache.set("count", to: Int?.none)
                #expect(try await app.cache.get("count", as: Int.self) == nil)
                #expect(try await stores[0].contains(KVKey<Int>("vapor.cache.count")) == false)

                try await app.cache.set("count", to: 8, expiresIn: .minutes(1))
                try await app.cache.set("count", to: Int?.none, expiresIn: .minutes(1))
                #expect(try await stores[0].contains(KVKey<Int>("vapor.cache.count")) == false)

                try await app.cache.set("count", to: 9)
                try await app.cache.delete("count")
                #expect(try await stores[0].contains(KVKey<Int>("vapor.cache.count")) == false)
            }
        }
    }

    @Test func aValueThatIsNotJSONFailsNamingItsKey() async throws {
        try await TestApp.withApp(store: InMemoryKVStore()) { app in
            let error = await #expect(throws: KVStoreError.self) {
                try await app.cache.set("score", to: Double.nan)
            }
            #expect(error?.key == "vapor.cache.score")
            guard case .encodingFailed = error else {
                Issue.record("not an encoding failure: \(String(describing: error))")
                return
            }
        }
    }
}
