import ForgeCore
import ForgeCrypt
import Foundation
import Testing

/// `StoreEvent.KeyNames.hashed` and `hashed(key:)`: a name becomes `hmac:` and 24 hex digits of its HMAC-SHA256,
/// the same text for the same name and key, other text for another name or key, never the name.
struct HashedKeyNamesTests {
    private static let token = "session.7f3c9e1d-token"

    @Test func aNameIsShownAsTheFirstTwelveBytesOfItsHMACSHA256() {
        let key = SymmetricKey(data: Data(repeating: 1, count: 32))
        // HMAC-SHA256 of the name under 32 bytes of 0x01, from Python's hmac module.
        #expect(StoreEvent.KeyNames.hashed(key: key).shown(Self.token) == "hmac:4c18a61fcdb0a45df985d9b4")
    }

    @Test func theProcessKeyShowsOneNameAlikeAndTwoNamesApart() throws {
        let shown = try #require(StoreEvent.KeyNames.hashed.shown(Self.token))
        #expect(StoreEvent.KeyNames.hashed.shown(Self.token) == shown)
        #expect(StoreEvent.KeyNames.hashed.shown(Self.token + "2") != shown)
        #expect(shown.hasPrefix("hmac:") && shown.count == 29)
        #expect(!shown.contains("7f3c9e1d"))
    }

    @Test func anotherKeyShowsOtherText() {
        let one = StoreEvent.KeyNames.hashed(key: SymmetricKey(size: .bits256))
        let other = StoreEvent.KeyNames.hashed(key: SymmetricKey(size: .bits256))
        #expect(one.shown(Self.token) != other.shown(Self.token))
        #expect(one.shown(Self.token) != StoreEvent.KeyNames.hashed.shown(Self.token))
    }
}
