import ForgeKVStore
import ForgeStorageTesting
import Testing
import Vapor

/// Two applications (as two servers) on one storage, each with its own store: one SQLite file, or one PostgreSQL
/// database; they share their sessions and their cache.
@Suite(.timeLimit(.minutes(1)))
struct SharedStoreTests {
    @Test(arguments: Backend.shared)
    func aSessionStartedOnOneServerIsReadOnTheOther(backend: Backend) async throws {
        try await backend.withStores(2, clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { first in
                try await TestApp.withApp(store: stores[1]) { second in
                    let cookie = try await first.logIn(as: "ada")
                    #expect(try await second.me(cookie: cookie).body == "ada")

                    #expect(try await second.logIn(as: "grace", cookie: cookie) == cookie)
                    #expect(try await first.me(cookie: cookie).body == "grace")

                    _ = try await second.send(.POST, "logout", cookie: cookie)
                    #expect(try await first.me(cookie: cookie).body == "nobody")
                }
            }
        }
    }

    @Test(arguments: Backend.shared)
    func aValueCachedOnOneServerIsReadOnTheOther(backend: Backend) async throws {
        try await backend.withStores(2, clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { first in
                try await TestApp.withApp(store: stores[1]) { second in
                    try await first.cache.set("greeting", to: "hello")
                    #expect(try await second.cache.get("greeting", as: String.self) == "hello")
                    #expect(try await second.send(.GET, "cache/greeting").body == "hello")

                    try await second.cache.delete("greeting")
                    #expect(try await first.cache.get("greeting", as: String.self) == nil)
                }
            }
        }
    }
}
