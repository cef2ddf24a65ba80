import ForgeCrypt
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// What every store that changes its master key in place promises (ForgeStorageTesting's `RotationConformance`), run
/// against the vault and the in-memory twin made with a master key, each alone and seen through the seam (for events
/// and for faults): a wrapper keeps rotation, and rotates the store it wraps.
@Suite("Master-key rotation behaviour")
struct RotationBehaviourTests {
    /// The stores that rotate in this module.
    enum Store: String, CaseIterable, Sendable {
        /// The twin made with a master key, rotated through `MasterKeyRotating`.
        case inMemory
        /// The same twin rotated through `AsyncMasterKeyRotating`, as a server's store is.
        case inMemoryAsync
        /// `EncryptedFileCrypt`.
        case vault
    }

    /// How the store is seen: alone, or through the seam.
    enum Seam: String, CaseIterable, Sendable {
        case alone, events, faults
    }

    @Test(arguments: Store.allCases, Seam.allCases)
    func everyRotatingStoreBehavesAlike(store: Store, seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await RotationConformance.run {
                let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
                switch store {
                case .inMemory:
                    return Self.subject(try InMemoryCrypt(masterKey: key), seen: seam, masterKey: key)
                case .inMemoryAsync:
                    return Self.asynchronousSubject(try InMemoryCrypt(masterKey: key), seen: seam, masterKey: key)
                case .vault:
                    let vault = try EncryptedFileCrypt(
                        directory: .custom(folder),
                        namespace: "vault-\(UUID().uuidString)",
                        masterKey: key
                    )
                    return Self.subject(vault, seen: seam, masterKey: key)
                }
            }
        }
    }

    /// The suite's documented sample: a store of both forms is named without saying which form is checked.
    @Test func theTwinIsCheckedInEitherFormAsTheSuitesSampleWritesIt() async {
        await RotationConformance.run {
            let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
            return RotationConformance.Subject(try InMemoryCrypt(masterKey: key), masterKey: key)
        }
        await RotationConformance.run {
            let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
            return RotationConformance.Subject(asynchronous: try InMemoryCrypt(masterKey: key), masterKey: key)
        }
    }

    @Test func aCopyOfTheVaultAndAWrapperOverItGoOnWithTheKeyTheWrapperRotatedTo() async throws {
        try await withTemporaryFolder { folder in
            let key = CryptKey<String>(key: "token")
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "vault",
                masterKey: .passphrase("one")
            )
            let logged = vault.reportingEvents { _ in }
            try logged.set("s3cr3t", for: key)
            try logged.rotateMasterKey(to: .passphrase("two"))
            #expect(try vault.get(key) == "s3cr3t")
            try vault.set("newer", for: key)
            #expect(try logged.get(key) == "newer")
            let reopened = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "vault",
                masterKey: .passphrase("two")
            )
            #expect(try reopened.get(key) == "newer")
        }
    }

    /// `store` as `seam` shows it, opened with `masterKey`.
    static func subject(
        _ store: some CryptStoring & CryptBackend & MasterKeyRotating,
        seen seam: Seam,
        masterKey: MasterKey
    ) -> RotationConformance.Subject {
        switch seam {
        case .alone: RotationConformance.Subject(store, masterKey: masterKey)
        case .events: RotationConformance.Subject(store.reportingEvents { _ in }, masterKey: masterKey)
        case .faults: RotationConformance.Subject(store.injectingFaults(StoreFaults()), masterKey: masterKey)
        }
    }

    /// `store` as `seam` shows it, opened with `masterKey`, rotated through its asynchronous form.
    static func asynchronousSubject(
        _ store: some CryptBackend & AsyncCryptStoring & AsyncMasterKeyRotating,
        seen seam: Seam,
        masterKey: MasterKey
    ) -> RotationConformance.Subject {
        switch seam {
        case .alone: RotationConformance.Subject(store, masterKey: masterKey)
        case .events: RotationConformance.Subject(store.reportingEvents { _ in }, masterKey: masterKey)
        case .faults: RotationConformance.Subject(store.injectingFaults(StoreFaults()), masterKey: masterKey)
        }
    }
}
