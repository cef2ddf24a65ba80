internal import Foundation

// The one place that chooses the cryptography backend: CryptoKit (and CommonCrypto for PBKDF2) on Apple
// platforms, swift-crypto (`Crypto`, and `CryptoExtras` for PBKDF2) elsewhere. Both offer the same API.
#if canImport(CryptoKit)
internal import CryptoKit
internal import CommonCrypto
#else
internal import Crypto
internal import CryptoExtras
#endif

/// The cryptographic operations the vault uses, each a thin call into CryptoKit or swift-crypto.
///
/// No primitive is written here: AES-GCM, HKDF-SHA256, HMAC-SHA256 and PBKDF2-HMAC-SHA256 all come from
/// the platform's library.
enum CryptoPrimitives {
    /// The size of every key the vault derives and of a key file: 256 bits.
    static let keyByteCount = 32

    /// `count` bytes from the system's cryptographically secure generator.
    static func randomBytes(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A key made of `bytes`.
    static func key(_ bytes: Data) -> SymmetricKey {
        SymmetricKey(data: bytes)
    }

    /// The bytes of `key`.
    static func bytes(of key: SymmetricKey) -> Data {
        key.withUnsafeBytes { Data($0) }
    }

    /// The size of `key` in bytes.
    static func byteCount(of key: SymmetricKey) -> Int {
        key.bitCount / 8
    }

    /// A 256-bit key derived from `key` with HKDF-SHA256, for one purpose named by `info`.
    static func deriveKey(from key: SymmetricKey, salt: Data, info: String) -> SymmetricKey {
        HKDF<SHA256>
            .deriveKey(
                inputKeyMaterial: key,
                salt: salt,
                info: Data(info.utf8),
                outputByteCount: keyByteCount
            )
    }

    /// The HMAC-SHA256 of `message` under `key`.
    static func authenticationCode(for message: Data, using key: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    /// Whether `code` is the HMAC-SHA256 of `message` under `key`, compared in constant time.
    static func isValidAuthenticationCode(_ code: Data, for message: Data, using key: SymmetricKey) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key)
    }

    /// Encrypts `plaintext` with AES-256-GCM under a fresh random nonce, authenticating `associatedData`.
    ///
    /// - Returns: The nonce, the ciphertext and the tag, concatenated.
    static func seal(_ plaintext: Data, using key: SymmetricKey, authenticating associatedData: Data) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData)
        guard let combined = box.combined else { throw CryptoPrimitivesError.unexpectedNonceSize }
        return combined
    }

    /// Decrypts what ``seal(_:using:authenticating:)`` returned, or returns nil when it does not
    /// authenticate under `key` and `associatedData` (or is too short to be a sealed box).
    static func open(_ combined: Data, using key: SymmetricKey, authenticating associatedData: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: combined) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: associatedData)
    }

    /// A 256-bit key derived from `passphrase` with PBKDF2-HMAC-SHA256.
    static func passphraseKey(_ passphrase: Data, salt: Data, iterations: Int) throws -> SymmetricKey {
        #if canImport(CryptoKit)
        var derived = [UInt8](repeating: 0, count: keyByteCount)
        // CommonCrypto's C function takes the passphrase's and the salt's bytes by address.
        let status = passphrase.withUnsafeBytes { password in
            salt.withUnsafeBytes { saltBytes in
                CCKeyDerivationPBKDF(
                    CCPBKDFAlgorithm(kCCPBKDF2),
                    password.baseAddress?.assumingMemoryBound(to: CChar.self),
                    password.count,
                    saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    saltBytes.count,
                    CCPseudoRandomAlgorithm(kCCPRFHmacAlgSHA256),
                    UInt32(clamping: iterations),
                    &derived,
                    derived.count
                )
            }
        }
        guard status == Int32(kCCSuccess) else { throw CryptoPrimitivesError.keyDerivationFailed(status: status) }
        return SymmetricKey(data: derived)
        #else
        return try KDF.Insecure.PBKDF2.deriveKey(
            from: passphrase,
            salt: salt,
            using: .sha256,
            outputByteCount: keyByteCount,
            rounds: iterations
        )
        #endif
    }
}

/// A failure of the cryptographic library that the vault reports inside a ``CryptStoreError``.
enum CryptoPrimitivesError: Error, CustomStringConvertible {
    case unexpectedNonceSize
    case keyDerivationFailed(status: Int32)

    var description: String {
        switch self {
        case .unexpectedNonceSize: "AES-GCM produced a nonce of an unexpected size"
        case .keyDerivationFailed(let status): "PBKDF2 failed with status \(status)"
        }
    }
}
