import ForgeCore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// Every ``CryptStoring`` implementation the package ships, for the behaviour suite to run against each: alone, and
/// the in-memory store and the vault seen through the seam, for events and for faults.
enum CryptStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case vaultWithKeyFile
    case vaultWithSymmetricKey
    case vaultWithPassphrase
    case keychain
    case inMemoryWithEvents
    case vaultWithEvents
    case inMemoryWithFaults
    case vaultWithFaults

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
        try seen(makeBackend(namespace: namespace))
    }

    /// `store` as this fixture's kind sees it: alone, or through the seam for events or for faults (that never fire,
    /// while every call asks for one).
    private func seen(_ store: some CryptStoring & CryptBackend) -> any CryptStoring {
        switch kind {
        case .inMemoryWithEvents, .vaultWithEvents: store.reportingEvents { _ in }
        case .inMemoryWithFaults, .vaultWithFaults:
            store.injectingFaults(StoreFaults([.always(.all, at: "never.used", with: .outOfSpace)]))
        default: store
        }
    }

    /// The store of this fixture's kind under `namespace`, not seen through the seam.
    private func makeBackend(namespace: String) throws -> any CryptStoring & CryptBackend {
        let isMain = namespace == "secrets"
        switch kind {
        case .inMemory, .inMemoryWithEvents, .inMemoryWithFaults:
            return isMain ? memory : otherMemory
        case .vaultWithKeyFile:
            return try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: namespace,
                masterKey: .keyFile(folder.appendingPathComponent("keys/master.key"))
            )
        case .vaultWithSymmetricKey, .vaultWithEvents, .vaultWithFaults:
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
