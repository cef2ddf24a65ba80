import Foundation
import Testing

@testable import ForgeCrypt

/// The vault's cryptography against published test vectors, so that swift-crypto (here) and CryptoKit with
/// CommonCrypto (on Apple platforms, where these tests run too) are held to the same bytes: a vault written on one
/// platform opens on the other.
struct CryptoPrimitivesTests {
    private func bytes(_ hex: String) -> Data {
        var data = Data()
        var digits = hex.unicodeScalars.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            data.append(UInt8(String([Character(high), Character(low)]), radix: 16) ?? 0)
        }
        return data
    }

    private func keyBytes(_ key: SymmetricKey) -> Data {
        key.withUnsafeBytes { Data($0) }
    }

    @Test func passphraseKeysArePBKDF2HMACSHA256() throws {
        // At the vault's lowest accepted count (swift-crypto refuses fewer rounds), against Python's hashlib.pbkdf2_hmac.
        let iterations = PassphraseParameters.acceptedIterations.lowerBound
        let plain = try CryptoPrimitives.passphraseKey(
            Data("passwd".utf8),
            salt: Data("salt".utf8),
            iterations: iterations
        )
        #expect(keyBytes(plain) == bytes("62a1542e270dad75a0e593ec0ff5701d9d1cffb80004be8155ef02a8a518cf62"))
        let unicode = try CryptoPrimitives.passphraseKey(
            Data("caf\u{E9} \u{1F512}".utf8),
            salt: Data(0...31),
            iterations: iterations
        )
        #expect(keyBytes(unicode) == bytes("e6ae8bab41316b23da85ca3b3e8299e633c4d5c0e907af8e1a8454563666dea3"))
    }

    @Test func derivedKeysAreHKDFSHA256() {
        let inputKey = CryptoPrimitives.key(Data(repeating: 0x0B, count: 22))
        // RFC 5869, test case 3 (no salt, no info): the first 32 bytes of its output.
        let plain = CryptoPrimitives.deriveKey(from: inputKey, salt: Data(), info: "")
        #expect(keyBytes(plain) == bytes("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"))
        // The vault's own info string, with test case 1's salt.
        let item = CryptoPrimitives.deriveKey(
            from: inputKey,
            salt: Data(0x00...0x0C),
            info: "forge-crypt.v1.item-encryption"
        )
        #expect(keyBytes(item) == bytes("87c879b3cc80cf1df70f0fa10f7b67e23ad61e71d69031da75191d3da533975a"))
    }

    @Test func authenticationCodesAreHMACSHA256() {
        // RFC 4231, test case 2.
        let key = CryptoPrimitives.key(Data("Jefe".utf8))
        let message = Data("what do ya want for nothing?".utf8)
        let code = bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(CryptoPrimitives.authenticationCode(for: message, using: key) == code)
        #expect(CryptoPrimitives.isValidAuthenticationCode(code, for: message, using: key))
        var changed = code
        changed[0] ^= 1
        #expect(!CryptoPrimitives.isValidAuthenticationCode(changed, for: message, using: key))
    }

    @Test func aSealedBoxIsNonceCiphertextAndTagOfAES256GCM() {
        // The GCM specification's test case 16 (AES-256, a 96-bit nonce, authenticated data), as nonce, ciphertext
        // and tag in one: the layout `seal` writes.
        let key = CryptoPrimitives.key(bytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let associatedData = bytes("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = bytes(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5"
                + "aa0de657ba637b39"
        )
        let combined = bytes(
            "cafebabefacedbaddecaf888"
                + "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f6"
                + "1e6393ba7a0abcc9f662" + "76fc6ece0f4e1768cddf8853bb2d551b"
        )
        #expect(CryptoPrimitives.open(combined, using: key, authenticating: associatedData) == plaintext)
        #expect(CryptoPrimitives.open(combined, using: key, authenticating: Data()) == nil)
        #expect(CryptoPrimitives.open(combined.dropLast(), using: key, authenticating: associatedData) == nil)
    }

    @Test func sealingUsesAFreshNonceAndOpensBack() throws {
        let key = CryptoPrimitives.key(CryptoPrimitives.randomBytes(count: CryptoPrimitives.keyByteCount))
        let secret = Data("s3cr3t".utf8)
        let first = try CryptoPrimitives.seal(secret, using: key, authenticating: Data("item".utf8))
        let second = try CryptoPrimitives.seal(secret, using: key, authenticating: Data("item".utf8))
        #expect(first.count == 12 + secret.count + 16)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(CryptoPrimitives.open(first, using: key, authenticating: Data("item".utf8)) == secret)
        #expect(CryptoPrimitives.open(first, using: key, authenticating: Data("other".utf8)) == nil)
    }
}
