import Foundation
import Testing

@testable import ForgeCrypt

/// A Codable value with nesting, optionals and a date, as apps store credentials.
struct Credentials: Codable, Sendable, Equatable {
    var user: String
    var scopes: [String]
    var expiry: Date
    var refresh: String?
}

enum SuiteKeys {
    static let token = CryptKey<String>(key: "auth.access")
    static let refresh = CryptKey<String>(key: "auth.refresh")
    static let blob = CryptKey<Data>(key: "signing.key")
    static let credentials = CryptKey<Credentials>(key: "auth.credentials")
    static let number = CryptKey<Double>(key: "number")
}

/// The behaviour every ``CryptStoring`` shares, run against each implementation.
struct CryptStoringBehaviourTests {
    @Test(arguments: CryptBackend.allCases)
    func getReturnsNilWhenNothingIsStored(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            #expect(try store.get(SuiteKeys.token) == nil)
            #expect(try !store.contains(SuiteKeys.token))
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func roundTripsStringsDataAndCodableValues(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            let bytes = Data([0x00, 0xFF, 0xC3, 0x28, 0x0A])  // not UTF-8
            let credentials = Credentials(
                user: "ada",
                scopes: ["read", "write"],
                expiry: Date(timeIntervalSinceReferenceDate: 123_456.789),
                refresh: nil
            )
            try store.set("tök€n 🔑", for: SuiteKeys.token)
            try store.set("", for: SuiteKeys.refresh)
            try store.set(bytes, for: SuiteKeys.blob)
            try store.set(credentials, for: SuiteKeys.credentials)

            #expect(try store.get(SuiteKeys.token) == "tök€n 🔑")
            #expect(try store.get(SuiteKeys.refresh) == "")
            #expect(try store.get(SuiteKeys.blob) == bytes)
            #expect(try store.get(SuiteKeys.credentials) == credentials)
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func setReplacesThePreviousSecret(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            try store.set("first", for: SuiteKeys.token)
            try store.set("second", for: SuiteKeys.token)
            #expect(try store.get(SuiteKeys.token) == "second")
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func deleteRemovesOnlyThatKeyAndSucceedsWhenMissing(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            try store.set("access", for: SuiteKeys.token)
            try store.set("refresh", for: SuiteKeys.refresh)
            try store.delete(SuiteKeys.token)
            try store.delete(SuiteKeys.token)
            try store.delete(SuiteKeys.blob)
            #expect(try store.get(SuiteKeys.token) == nil)
            #expect(try !store.contains(SuiteKeys.token))
            #expect(try store.get(SuiteKeys.refresh) == "refresh")
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func containsTracksExistence(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            #expect(try !store.contains(SuiteKeys.token))
            try store.set("token", for: SuiteKeys.token)
            #expect(try store.contains(SuiteKeys.token))
            #expect(try !store.contains(SuiteKeys.refresh))
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func deleteAllClearsThisStoreOnly(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            let other = try fixture.makeOtherStore()
            try store.set("access", for: SuiteKeys.token)
            try store.set(Data([1, 2, 3]), for: SuiteKeys.blob)
            try other.set("kept", for: SuiteKeys.token)

            try store.deleteAll()
            try store.deleteAll()

            #expect(try store.get(SuiteKeys.token) == nil)
            #expect(try store.get(SuiteKeys.blob) == nil)
            #expect(try other.get(SuiteKeys.token) == "kept")
            try store.set("usable again", for: SuiteKeys.token)
            #expect(try store.get(SuiteKeys.token) == "usable again")
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func canonicallyEquivalentKeyNamesAreOneKey(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            try store.set("precomposed", for: CryptKey<String>(key: "caf\u{E9}"))
            #expect(try store.get(CryptKey<String>(key: "cafe\u{301}")) == "precomposed")
            try store.set("decomposed", for: CryptKey<String>(key: "cafe\u{301}"))
            #expect(try store.get(CryptKey<String>(key: "caf\u{E9}")) == "decomposed")
            try store.delete(CryptKey<String>(key: "cafe\u{301}"))
            #expect(try !store.contains(CryptKey<String>(key: "caf\u{E9}")))
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func hostileKeyNamesAreOrdinaryDistinctKeys(backend: CryptBackend) throws {
        let names = [
            "", ".", "..", "../escape", "/etc/passwd", "a/b\\c", "nul\u{0}byte", "line\nbreak", "Case", "case",
            "\u{E9}", "\u{C9}", "vault.json", "%2f", String(repeating: "long-", count: 2_000), "🔑",
        ]
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            for (index, name) in names.enumerated() {
                try store.set("value \(index)", for: CryptKey<String>(key: name))
            }
            for (index, name) in names.enumerated() {
                #expect(try store.get(CryptKey<String>(key: name)) == "value \(index)", "key \(name.debugDescription)")
            }
            try store.delete(CryptKey<String>(key: "../escape"))
            #expect(try store.get(CryptKey<String>(key: "../escape")) == nil)
            #expect(try store.get(CryptKey<String>(key: "/etc/passwd")) == "value 4")
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func readingWithAnotherTypeThrowsAndKeepsTheSecret(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            try store.set("not a number", for: SuiteKeys.token)
            let asNumber = CryptKey<Double>(key: SuiteKeys.token.key)
            #expect {
                try store.get(asNumber)
            } throws: { error in
                guard case .decodingFailed(let key, _) = error as? CryptStoreError else { return false }
                return key == SuiteKeys.token.key
            }
            #expect(try store.get(SuiteKeys.token) == "not a number")
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func aValueThatCannotBeEncodedIsRefusedAndTheOldOneKept(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let store = try fixture.makeStore()
            try store.set(1.5, for: SuiteKeys.number)
            #expect {
                try store.set(Double.nan, for: SuiteKeys.number)
            } throws: { error in
                guard case .encodingFailed(let key, _) = error as? CryptStoreError else { return false }
                return key == SuiteKeys.number.key
            }
            #expect(try store.get(SuiteKeys.number) == 1.5)
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func anotherHandleOnTheSameStorageSeesTheSameSecrets(backend: CryptBackend) throws {
        try backend.withFixture { fixture in
            let first = try fixture.makeStore()
            try first.set("persisted", for: SuiteKeys.token)
            let second = try fixture.makeStore()
            #expect(try second.get(SuiteKeys.token) == "persisted")
            try second.delete(SuiteKeys.token)
            #expect(try first.get(SuiteKeys.token) == nil)
        }
    }

    @Test(arguments: CryptBackend.allCases)
    func concurrentWritesOfDistinctKeysAllLand(backend: CryptBackend) async throws {
        let fixture = try CryptFixture(backend: backend)
        defer { fixture.cleanUp() }
        let store = try fixture.makeStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask { try store.set("secret \(index)", for: CryptKey<String>(key: "key.\(index)")) }
            }
            try await group.waitForAll()
        }
        for index in 0..<32 {
            #expect(try store.get(CryptKey<String>(key: "key.\(index)")) == "secret \(index)")
        }
    }
}
