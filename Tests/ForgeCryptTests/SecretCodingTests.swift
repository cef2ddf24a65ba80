import Foundation
import Testing

@testable import ForgeCrypt

/// The one coding every ``CryptStoring`` shares: raw bytes for `Data`, UTF-8 for `String`, JSON otherwise.
struct SecretCodingTests {
    private struct Token: Codable, Sendable, Equatable {
        var value: String
    }

    @Test func dataIsStoredAsItself() throws {
        let bytes = Data([0x00, 0xFF, 0x80, 0x41])
        #expect(try SecretCoding.encode(bytes, key: "k") == bytes)
        #expect(try SecretCoding.decode(Data.self, from: bytes, key: "k") == bytes)
    }

    @Test func aStringIsStoredAsItsUTF8() throws {
        let text = "caf\u{E9} \u{1F512}"
        #expect(try SecretCoding.encode(text, key: "k") == Data(text.utf8))
        #expect(try SecretCoding.decode(String.self, from: Data(text.utf8), key: "k") == text)
        #expect(try SecretCoding.decode(String.self, from: Data(), key: "k") == "")
    }

    @Test func aStringKeepsALeadingByteOrderMarkAndNUL() throws {
        let text = "\u{FEFF}a\u{0}b"
        #expect(try SecretCoding.decode(String.self, from: Data(text.utf8), key: "k") == text)
    }

    @Test(
        arguments: [
            [0xFF],  // never in UTF-8
            [0x61, 0xC3],  // a sequence cut short
            [0xC0, 0xAF],  // an overlong `/`
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xEF, 0xBF, 0xBD, 0xFF],  // U+FFFD itself, then a bad byte
        ] as [[UInt8]]
    )
    func bytesThatAreNotUTF8AreRefusedAsAString(bytes: [UInt8]) {
        #expect(throws: CryptStoreError.decodingFailed(key: "k", underlying: "the stored bytes are not UTF-8 text")) {
            try SecretCoding.decode(String.self, from: Data(bytes), key: "k")
        }
    }

    @Test func otherValuesAreJSON() throws {
        let token = Token(value: "abc")
        let data = try SecretCoding.encode(token, key: "k")
        #expect(try JSONDecoder().decode(Token.self, from: data) == token)
        #expect(try SecretCoding.decode(Token.self, from: data, key: "k") == token)
    }

    @Test func optionalDataAndStringAreJSONNotRawBytes() throws {
        let data: Data? = Data([1, 2, 3])
        let text: String? = "abc"
        #expect(try SecretCoding.encode(data, key: "k") == JSONEncoder().encode(data))
        #expect(try SecretCoding.encode(text, key: "k") == Data("\"abc\"".utf8))
        #expect(try SecretCoding.decode(String?.self, from: Data("\"abc\"".utf8), key: "k") == "abc")
        #expect(throws: CryptStoreError.self) {
            try SecretCoding.decode(String?.self, from: Data("abc".utf8), key: "k")
        }
    }

    @Test func bytesThatAreNotTheValueAreRefused() {
        #expect {
            try SecretCoding.decode(Token.self, from: Data("not json".utf8), key: "k")
        } throws: { error in
            guard case CryptStoreError.decodingFailed(let key, _) = error else { return false }
            return key == "k"
        }
    }
}
