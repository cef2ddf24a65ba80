import ForgeKVStore
import ForgeStorageTesting
import Testing
import Vapor

/// `expiresIn` is the value's lifetime in the store: it reads as missing once that time has passed on the store's
/// clock; a value set without one never expires.
@Suite(.timeLimit(.minutes(1)))
struct CacheExpiryTests {
    let key = KVKey<String>("vapor.cache.greeting")

    @Test(arguments: Backend.available)
    func aValueExpiresAfterItsExpirationTime(backend: Backend) async throws {
        let clock = ManualExpiryClock()
        try await backend.withStores(clock: clock) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("greeting", to: "hello", expiresIn: .seconds(90))
                #expect(try await stores[0].remainingLifetime(of: key) == .seconds(90))
                clock.advance(by: .seconds(89))
                #expect(try await app.cache.get("greeting", as: String.self) == "hello")
                clock.advance(by: .seconds(1))
                #expect(try await app.cache.get("greeting", as: String.self) == nil)
                #expect(try await app.send(.GET, "cache/greeting").body == "none")
            }
        }
    }

    @Test(arguments: Backend.available)
    func everyUnitOfExpirationTimeIsALifetime(backend: Backend) async throws {
        try await backend.withStores(clock: ManualExpiryClock()) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                let times: [(CacheExpirationTime, Duration)] = [
                    (.seconds(30), .seconds(30)),
                    (.minutes(2), .seconds(120)),
                    (.hours(3), .seconds(3 * 3600)),
                    (.days(2), .seconds(2 * 86_400)),
                ]
                for (time, lifetime) in times {
                    try await app.cache.set("greeting", to: "hello", expiresIn: time)
                    #expect(try await stores[0].remainingLifetime(of: key) == lifetime)
                }
            }
        }
    }

    @Test(arguments: Backend.available)
    func aValueWithoutExpirationTimeNeverExpires(backend: Backend) async throws {
        let clock = ManualExpiryClock()
        try await backend.withStores(clock: clock) { stores in
            try await TestApp.withApp(store: stores[0]) { app in
                try await app.cache.set("greeting", to: "hi", expiresIn: .seconds(10))
                try await app.cache.set("greeting", to: "hello")
                try await app.cache.set("farewell", to: "bye", expiresIn: nil)
                clock.advance(by: .seconds(400 * 86_400))
                #expect(try await app.cache.get("greeting", as: String.self) == "hello")
                #expect(try await app.cache.get("farewell", as: String.self) == "bye")
                #expect(try await stores[0].expirationDate(of: key) == nil)
            }
        }
    }
}
