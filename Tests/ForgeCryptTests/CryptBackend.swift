import ForgeCore
import Foundation
import Testing

@testable import ForgeCrypt

/// Every ``CryptStoring`` implementation, for the behaviour suite to run against each.
enum CryptBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case vaultWithKeyFile
    case vaultWithSymmetricKey
    case vaultWithPassphrase
    case keychain

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh fixture of this backend, and removes what it left on disk afterwards.
    func withFixture<Result>(_ body: (CryptFixture) throws -> Result) throws -> Result {
        let fixture = try CryptFixture(backend: self)
        defer { fixture.cleanUp() }
        return try body(fixture)
    }
}

/// The storage behind one backend: ``makeStore()`` gives a new handle on it each time (a new instance over
/// the same folder or keychain; the same instance for ``InMemoryCrypt``, whose storage is the instance).
final class CryptFixture: Sendable {
    let backend: CryptBackend
    /// The temporary folder of the vault backends.
    let folder: URL
    let memory = InMemoryCrypt()
    let otherMemory = InMemoryCrypt()
    let keychain = FakeKeychain()
    let symmetricKey = SymmetricKey(size: .bits256)

    init(backend: CryptBackend) throws {
        self.backend = backend
        self.folder = temporaryFolder()
    }

    /// A handle on this fixture's store.
    func makeStore() throws -> any CryptStoring {
        try makeStore(namespace: "secrets")
    }

    /// A handle on another store of the same kind, beside this one: another namespace, service or instance.
    func makeOtherStore() throws -> any CryptStoring {
        try makeStore(namespace: "other")
    }

    private func makeStore(namespace: String) throws -> any CryptStoring {
        let isMain = namespace == "secrets"
        switch backend {
        case .inMemory:
            return isMain ? memory : otherMemory
        case .vaultWithKeyFile:
            return try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: namespace,
                masterKey: .keyFile(folder.appendingPathComponent("keys/master.key"))
            )
        case .vaultWithSymmetricKey:
            return try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: namespace,
                masterKey: .symmetric(symmetricKey)
            )
        case .vaultWithPassphrase:
            return try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: namespace,
                masterKey: .passphrase("correct horse battery staple")
            )
        case .keychain:
            return KeychainCrypt(
                service: isMain ? "com.example.secrets" : "com.example.other",
                accessGroup: nil,
                accessibility: .afterFirstUnlock,
                synchronizable: false,
                keychain: keychain
            )
        }
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A new, empty-named temporary folder path (not created) for one test.
func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-crypt-tests-\(UUID().uuidString)", isDirectory: true)
}
