import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// Every ``CryptStoring`` implementation the package ships, for the behaviour suite to run against each.
enum CryptStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case vaultWithKeyFile
    case vaultWithSymmetricKey
    case vaultWithPassphrase
    case keychain

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh fixture of this kind of store in a temporary folder, removed afterwards.
    func withFixture<Result>(_ body: (CryptFixture) async throws -> Result) async throws -> Result {
        try await withTemporaryFolder { folder in
            try await body(CryptFixture(kind: self, folder: folder))
        }
    }
}

/// The storage behind one kind of store: ``makeStore()`` gives a new handle on it each time (a new instance over
/// the same folder or keychain; the same instance for ``InMemoryCrypt``, whose storage is the instance).
final class CryptFixture: Sendable {
    let kind: CryptStoreKind
    /// The temporary folder of the vaults.
    let folder: URL
    let memory = InMemoryCrypt()
    let otherMemory = InMemoryCrypt()
    let keychain = FakeKeychain()
    let symmetricKey = SymmetricKey(size: .bits256)

    init(kind: CryptStoreKind, folder: URL) {
        self.kind = kind
        self.folder = folder
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
        switch kind {
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
}
