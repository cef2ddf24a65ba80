import Foundation
import Testing

import ForgeCrypt

// The usage the reference documentation shows ("Testing Keychain Storage"), compiled as written with the
// public API only, so the documented API cannot drift.

enum TestAuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
    static let refreshToken = CryptKey<String>(key: "auth.refresh")
}

struct CryptUsageTests {
    let keychain = InMemoryCrypt()

    @Test func deleteAllClearsEverything() throws {
        try keychain.set("access", for: TestAuthKeys.accessToken)
        try keychain.set("refresh", for: TestAuthKeys.refreshToken)
        try keychain.deleteAll()
        #expect(try keychain.get(TestAuthKeys.accessToken) == nil)
        #expect(try keychain.get(TestAuthKeys.refreshToken) == nil)
        #expect(try keychain.keys().isEmpty)
    }

    @Test func aServiceTakesAnyCryptStoring() throws {
        final class AuthService: Sendable {
            private let keychain: any CryptStoring
            init(keychain: any CryptStoring) { self.keychain = keychain }
            func login(token: String) throws { try keychain.set(token, for: TestAuthKeys.accessToken) }
            func logout() throws { try keychain.deleteAll() }
        }
        let service = AuthService(keychain: keychain)
        try service.login(token: "abc")
        #expect(try keychain.contains(TestAuthKeys.accessToken))
        try service.logout()
        #expect(try keychain.get(TestAuthKeys.accessToken) == nil)
    }

    @Test func keysDescribeThemselves() {
        #expect(TestAuthKeys.accessToken.description == #"CryptKey<String>("auth.access")"#)
        #expect(TestAuthKeys.accessToken == CryptKey<String>(key: "auth.access"))
    }
}
