import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// Generated hostile keys, and damaged vault files: nothing collides or traps, every failure is typed.
@Suite("CryptStoring with hostile input")
struct CryptStoringHostileInputTests {
    @Test(arguments: CryptStoreKind.allCases)
    func generatedKeysNeverCollideAndEachReadsItsOwnSecret(kind: CryptStoreKind) async throws {
        try await kind.withFixture { fixture in
            let store = try fixture.makeStore()
            var generator = SeededGenerator(seed: 0x5EC_2E7)
            // Keyed as Swift compares strings: canonically equivalent spellings are one key by design.
            var model: [String: String] = [:]
            for index in 0..<100 {
                let key = HostileNames.string(using: &generator)
                try store.set("\(index)", for: CryptKey<String>(key: key))
                model[key] = "\(index)"
            }
            for (key, secret) in model {
                #expect(try store.get(CryptKey<String>(key: key)) == secret, "\(key.debugDescription)")
            }
        }
    }

    @Test func damagedItemFilesAreTamperedErrorsNeverTrapAndTheNextSetRepairsThem() async throws {
        try await CryptStoreKind.vaultWithSymmetricKey.withFixture { fixture in
            let store = try fixture.makeStore()
            let key = CryptKey<String>(key: "auth.token")
            try store.set("s3cr3t-token", for: key)
            let file = try #require((store as? EncryptedFileCrypt)?.fileURL(for: key))
            let whole = try Data(contentsOf: file)
            var generator = SeededGenerator(seed: 0x7A_3D)
            var damaged: [Data] = (0..<whole.count).map { whole.prefix($0) }
            damaged += (0..<50).map { _ in Data(generator.bytes(1...200)) }
            for bytes in damaged {
                try bytes.write(to: file)
                #expect(throws: CryptStoreError.tamperedItem(key: "auth.token")) { try store.get(key) }
                #expect(try store.contains(key))
                try store.set("s3cr3t-token", for: key)
                #expect(try store.get(key) == "s3cr3t-token")
            }
            #expect(throws: CryptStoreError.self) { try store.get(CryptKey<[Int]>(key: "auth.token")) }
            try store.set([1, 2], for: CryptKey<[Int]>(key: "auth.token"))
            #expect(try store.get(CryptKey<[Int]>(key: "auth.token")) == [1, 2])
        }
    }

    @Test func aTruncatedHeaderIsATypedErrorAtEveryLength() async throws {
        try await CryptStoreKind.vaultWithSymmetricKey.withFixture { fixture in
            let store = try fixture.makeStore()
            let header = try #require((store as? EncryptedFileCrypt)?.folderURL.appendingPathComponent("vault.json"))
            let whole = try Data(contentsOf: header)
            for length in 0..<whole.count {
                try whole.prefix(length).write(to: header)
                #expect(throws: CryptStoreError.self) { _ = try fixture.makeStore() }
            }
            try whole.write(to: header)
            _ = try fixture.makeStore()
        }
    }
}
