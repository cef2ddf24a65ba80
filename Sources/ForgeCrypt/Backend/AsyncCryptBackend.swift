public import Foundation

/// The storage an asynchronous secret store is built on (a database behind a network): named secrets, each held as
/// its bytes, and nothing typed.
///
/// The asynchronous form of ``CryptBackend``, with the same requirements and rules, each `async`. Declare
/// ``AsyncCryptStoring`` beside it and the typed API comes with it, the same policy ``CryptBackend``'s stores get.
/// A store that seals its secrets (`PostgresCrypt` does, in the vault's item format) does so below this contract,
/// with ``SecretSealer``.
public protocol AsyncCryptBackend: Sendable {
    /// The bytes of the secret stored under `name`, or nil when none is.
    ///
    /// - Throws: ``CryptStoreError/readFailed(key:underlying:)`` or another ``CryptStoreError`` naming `name`.
    nonisolated(nonsending) func storedSecret(named name: String) async throws -> Data?

    /// Stores `secret` under `name`, replacing what was stored there, atomically.
    ///
    /// - Throws: ``CryptStoreError/writeFailed(key:underlying:)`` or another ``CryptStoreError`` naming `name`; the
    ///   previous secret is kept.
    nonisolated(nonsending) func store(_ secret: Data, named name: String) async throws

    /// Removes the secret stored under `name`; succeeds when there is none.
    ///
    /// - Throws: ``CryptStoreError/removeFailed(key:underlying:)``.
    nonisolated(nonsending) func removeSecret(named name: String) async throws

    /// Whether a secret is stored under `name`. The default reads it with ``storedSecret(named:)``.
    ///
    /// - Throws: ``CryptStoreError/readFailed(key:underlying:)`` when the store cannot tell.
    nonisolated(nonsending) func hasSecret(named name: String) async throws -> Bool

    /// The names that hold a secret, in any order and form.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func storedNames() async throws -> [String]

    /// Removes every secret this store holds, and nothing it does not.
    ///
    /// - Throws: ``CryptStoreError/removeAllFailed(underlying:)``.
    nonisolated(nonsending) func removeAll() async throws

    /// The number of secrets this store holds. The default counts the names of ``storedNames()``, each once; see
    /// ``CryptBackend/itemCount()``. `PostgresCrypt` counts its rows on the server and opens none.
    ///
    /// - Throws: ``CryptStoreError/listFailed(underlying:)``.
    nonisolated(nonsending) func itemCount() async throws -> Int
}

extension AsyncCryptBackend {
    /// Whether ``storedSecret(named:)`` finds a secret under `name`.
    ///
    /// - Throws: What ``storedSecret(named:)`` throws.
    public func hasSecret(named name: String) async throws -> Bool {
        try await storedSecret(named: name) != nil
    }
}
