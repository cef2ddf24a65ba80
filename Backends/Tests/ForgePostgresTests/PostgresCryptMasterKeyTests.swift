import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// The vault's master keys on PostgreSQL: each kind seals and opens, and a wrong one is refused with the vault's typed
/// error before anything is written.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptMasterKeyTests {
    let token = CryptKey<String>(key: "auth.token")

    @Test func aSymmetricKeyAPassphraseAndAKeyFileEachSealAndOpen() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-crypt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("master.key")
        let masterKeys: [MasterKey] = [
            .symmetric(SymmetricKey(size: .bits256)), .passphrase("correct horse battery"), .keyFile(keyFile),
        ]
        for masterKey in masterKeys {
            try await TestServer.withCrypts(masterKey: masterKey) { stores in
                try await stores[0].set("sealed with \(masterKey.kind)", for: token)
                // A store that opens the namespace afresh, as another server would.
                let other = PostgresCrypt(
                    client: stores[0].client,
                    namespace: stores[0].namespace,
                    masterKey: masterKey
                )
                #expect(try await other.get(token) == "sealed with \(masterKey.kind)")
                #expect(try await other.keys() == [token.key])
            }
        }
        #expect(FileManager.default.fileExists(atPath: keyFile.path), "the key file was created for the new header")
    }

    @Test func aWrongPassphraseOrKeyThrowsWrongMasterKeyAndOverwritesNothing() async throws {
        try await TestServer.withCrypts(masterKey: .passphrase("right")) { stores in
            let store = stores[0]
            try await store.set("secret", for: token)
            let before = try await rowContents(of: store)

            for wrong in [MasterKey.passphrase("wrong"), .symmetric(SymmetricKey(size: .bits256))] {
                let intruder = PostgresCrypt(client: store.client, namespace: store.namespace, masterKey: wrong)
                let error = await #expect(throws: CryptStoreError.self) {
                    try await intruder.set("overwritten", for: token)
                }
                guard case .wrongMasterKey(let path, .passphrase) = error else {
                    Issue.record("expected wrongMasterKey naming a passphrase, got \(String(describing: error))")
                    continue
                }
                #expect(path.contains(store.namespace))
                await #expect(throws: CryptStoreError.self) { try await intruder.get(token) }
                await #expect(throws: CryptStoreError.self) { try await intruder.delete(token) }
                await #expect(throws: CryptStoreError.self) { try await intruder.deleteAll() }
                await #expect(throws: CryptStoreError.self) { try await intruder.prepare() }
            }

            #expect(try await rowContents(of: store) == before)
            #expect(try await store.get(token) == "secret")
        }
    }

    @Test func aSymmetricNamespaceNamesItsKindInTheError() async throws {
        try await TestServer.withCrypts { stores in
            try await stores[0].set("secret", for: token)
            let intruder = PostgresCrypt(
                client: stores[0].client,
                namespace: stores[0].namespace,
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            let error = await #expect(throws: CryptStoreError.self) { try await intruder.get(token) }
            guard case .wrongMasterKey(_, .symmetric) = error else {
                Issue.record("expected wrongMasterKey naming a symmetric key, got \(String(describing: error))")
                return
            }
        }
    }

    /// The namespace's rows as comparable text.
    private func rowContents(of store: PostgresCrypt) async throws -> [String] {
        try await TestServer.rawSecretRows(of: store.namespace, client: store.client)
            .map { "\($0.item) \($0.sealed.base64EncodedString())" }
    }
}
