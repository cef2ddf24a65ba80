internal import Foundation

/// How a ``MasterKey/passphrase(_:)`` vault stretches its passphrase, stored in the vault's header.
struct PassphraseParameters: Codable, Sendable, Equatable {
    /// The only key derivation function written so far.
    static let pbkdf2SHA256 = "PBKDF2-HMAC-SHA256"
    /// The iteration count of new vaults: OWASP's 2023 advice for PBKDF2-HMAC-SHA256.
    static let defaultIterations = 600_000
    /// The iteration counts a header may hold: below is weaker than the library's floor, above is a header
    /// that would make opening the vault hang.
    static let acceptedIterations = 210_000...10_000_000
    /// The size of a new salt, in bytes.
    static let saltByteCount = 32

    /// The key derivation function, ``pbkdf2SHA256``.
    var algorithm: String
    /// How many iterations of the pseudo-random function.
    var iterations: Int
    /// The random salt.
    var salt: Data

    /// Fresh parameters for a new vault: a random salt and the default iteration count.
    static func makeNew() -> PassphraseParameters {
        PassphraseParameters(
            algorithm: pbkdf2SHA256,
            iterations: defaultIterations,
            salt: CryptoPrimitives.randomBytes(count: saltByteCount)
        )
    }

    /// Why these parameters, read from a header, cannot be used; nil when they can.
    var problem: String? {
        if algorithm != Self.pbkdf2SHA256 { return "unknown key derivation function '\(algorithm)'" }
        if !Self.acceptedIterations.contains(iterations) { return "iteration count \(iterations) is out of range" }
        if salt.count < 16 { return "the salt is too short" }
        return nil
    }

    /// The master key that `passphrase` gives under these parameters.
    func deriveKey(from passphrase: String) throws -> SymmetricKey {
        let normalized = passphrase.precomposedStringWithCanonicalMapping
        return try CryptoPrimitives.passphraseKey(Data(normalized.utf8), salt: salt, iterations: iterations)
    }
}
