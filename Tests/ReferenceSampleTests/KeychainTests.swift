// forgestorage-testing.md, "KeychainTests.swift"
import Testing
import ForgeCrypt

enum TestAuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
    static let refreshToken = CryptKey<String>(key: "auth.refresh")
}

struct KeychainTests {
    let keychain = InMemoryCrypt()

    @Test func getReturnsNilWhenNotSet() throws {
        let token = try keychain.get(TestAuthKeys.accessToken)
        #expect(token == nil)
    }

    @Test func setAndGet() throws {
        try keychain.set("token123", for: TestAuthKeys.accessToken)
        let token = try keychain.get(TestAuthKeys.accessToken)
        #expect(token == "token123")
    }

    @Test func deleteRemovesItem() throws {
        try keychain.set("token123", for: TestAuthKeys.accessToken)
        try keychain.delete(TestAuthKeys.accessToken)
        #expect(try keychain.get(TestAuthKeys.accessToken) == nil)
    }

    @Test func containsTracksExistence() throws {
        #expect(try !keychain.contains(TestAuthKeys.accessToken))
        try keychain.set("token", for: TestAuthKeys.accessToken)
        #expect(try keychain.contains(TestAuthKeys.accessToken))
    }

    @Test func deleteAllClearsEverything() throws {
        try keychain.set("access", for: TestAuthKeys.accessToken)
        try keychain.set("refresh", for: TestAuthKeys.refreshToken)
        try keychain.deleteAll()
        #expect(try keychain.get(TestAuthKeys.accessToken) == nil)
        #expect(try keychain.get(TestAuthKeys.refreshToken) == nil)
    }
}
