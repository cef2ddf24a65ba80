import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCrypt

/// Changing a vault's master key: each kind of key, what other stores read and write meanwhile, what the header and
/// `itemCount()` say, wrong keys, and that no secret or name reaches the disk in the clear at any step.
///
/// Interrupted rotations (a process killed at each step, and at random moments) are in ForgeReliabilityTests'
/// `VaultRotationCrashTests`, with real processes.
struct EncryptedFileCryptRotationTests {
    /// The kinds of master key a rotation goes from and to.
    enum KeyKind: String, CaseIterable, CustomStringConvertible, Sendable {
        case keyFile, symmetric, passphrase

        var description: String { rawValue }

        /// A new key of this kind: `name` names the key file or is the passphrase.
        func makeKey(_ name: String, in folder: URL) -> MasterKey {
            switch self {
            case .keyFile: .keyFile(folder.appendingPathComponent("keys/\(name).key"))
            case .symmetric: .symmetric(SymmetricKey(size: .bits256))
            case .passphrase: .passphrase("correct horse \(name) battery")
            }
        }
    }

    /// The secrets every test stores: key names and values that a scan of the disk must never find.
    let secrets = (0..<6).map { (key: "account.name-\($0)", value: "s3cr3t-value-\($0)") }

    private func vault(_ folder: URL, _ key: MasterKey, namespace: String = "secrets") throws -> EncryptedFileCrypt {
        try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: key)
    }

    private func fill(_ store: EncryptedFileCrypt) throws {
        for secret in secrets { try store.set(secret.value, for: CryptKey<String>(key: secret.key)) }
    }

    /// Checks that `store` reads every secret and lists every key.
    private func expectAllSecrets(in store: EncryptedFileCrypt, _ context: String) throws {
        for secret in secrets {
            #expect(try store.get(CryptKey<String>(key: secret.key)) == secret.value, "\(context): \(secret.key)")
        }
        #expect(try store.keys() == secrets.map(\.key).sorted(), "\(context)")
    }

    private func expectError(_ expected: CryptStoreError, _ context: String = "", _ body: () throws -> Void) {
        #expect(
            "\(context)",
            performing: { try body() },
            throws: { error in (error as? CryptStoreError) == expected }
        )
    }

    /// The decoded header of the vault at `folderURL`.
    private func header(_ store: EncryptedFileCrypt) throws -> VaultHeader {
        try JSONCodec.decode(
            VaultHeader.self,
            from: Data(contentsOf: store.folderURL.appendingPathComponent(VaultHeader.fileName))
        )
    }

    /// The names of the item files in the vault's folder.
    private func itemFiles(_ store: EncryptedFileCrypt) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path).filter { $0.hasSuffix(".secret") }
    }

    /// The snippets no file under `folder` may hold: every key name, every secret, and `passphrases`.
    private func expectNothingInTheClear(under folder: URL, passphrases: [String], _ context: String) {
        let needles = secrets.flatMap { [$0.key, $0.value] } + passphrases
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        for path in paths {
            guard let bytes = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) else {
                continue
            }
            for needle in needles where bytes.range(of: Data(needle.utf8)) != nil {
                Issue.record("\(context): '\(path)' holds '\(needle)' in the clear")
            }
        }
    }

    // MARK: Each kind of key

    @Test(arguments: KeyKind.allCases, KeyKind.allCases)
    func aVaultMovesFromEachKindOfMasterKeyToEachOther(from: KeyKind, to: KeyKind) async throws {
        try await withTemporaryFolder { folder in
            let oldKey = from.makeKey("old", in: folder)
            let newKey = to.makeKey("new", in: folder)
            let store = try vault(folder, oldKey)
            try fill(store)

            var steps: [MasterKeyRotationStep] = []
            let rotated = try store.rotateMasterKey(to: newKey) { steps.append($0) }

            let count = secrets.count
            #expect(steps.first == .began(itemCount: count))
            #expect(steps.filter { if case .resealed = $0 { true } else { false } }.count == count)
            #expect(steps.contains(.switched))
            #expect(steps.filter { if case .retired = $0 { true } else { false } }.count == count)
            #expect(steps.last == .finished)
            try expectAllSecrets(in: rotated, "the store returned")
            try expectAllSecrets(in: vault(folder, newKey), "a store opened with the new key")
            #expect(try header(rotated).rotation == nil)
            #expect(try header(rotated).masterKey == to.makeKey("x", in: folder).kind)
            #expect(try itemFiles(rotated).count == count)
            #expect(try rotated.itemCount() == count)
            #expect(try EncryptedFileCrypt.itemCount(directory: .custom(folder), namespace: "secrets") == count)
            #expect(throws: CryptStoreError.self) { _ = try vault(folder, oldKey) }
            // The new store writes as any store does.
            try rotated.set("later", for: CryptKey<String>(key: "after.rotation"))
            #expect(try vault(folder, newKey).get(CryptKey<String>(key: "after.rotation")) == "later")
        }
    }

    @Test func theRotatingStoreAndItsCopiesGoOnWithTheNewKey() async throws {
        try await withTemporaryFolder { folder in
            let (oldKey, newKey) = (
                KeyKind.symmetric.makeKey("old", in: folder), KeyKind.passphrase.makeKey("new", in: folder)
            )
            let store = try vault(folder, oldKey)
            let logged = store.reportingEvents { _ in }  // what a service holds: a copy, wrapped
            try fill(store)

            try store.rotateMasterKey(to: newKey)

            try expectAllSecrets(in: store, "the store that rotated")
            try logged.set("later", for: CryptKey<String>(key: "after.rotation"))
            #expect(try vault(folder, newKey).get(CryptKey<String>(key: "after.rotation")) == "later")
            #expect(throws: CryptStoreError.self, "another store on the old key is refused") {
                _ = try vault(folder, oldKey)
            }
        }
    }

    @Test func aNewKeyFileIsCreatedOwnerOnlyAndTheOldOneIsLeftAsItIs() async throws {
        try await withTemporaryFolder { folder in
            let oldURL = folder.appendingPathComponent("old.key")
            let newURL = folder.appendingPathComponent("keys/new.key")
            try fill(vault(folder, .keyFile(oldURL)))
            let oldBytes = try Data(contentsOf: oldURL)

            try vault(folder, .keyFile(oldURL)).rotateMasterKey(to: .keyFile(newURL))

            #expect(try ForeignFiles.permissions(atPath: newURL.path) == 0o600)
            #expect(try Data(contentsOf: newURL).count == 32)
            #expect(try Data(contentsOf: oldURL) == oldBytes)
            try expectAllSecrets(in: vault(folder, .keyFile(newURL)), "the new key file")
        }
    }

    @Test func theStaticFormOpensTheVaultAndRunningItAgainChangesNothing() async throws {
        try await withTemporaryFolder { folder in
            let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
            try fill(vault(folder, oldKey))

            let rotated = try EncryptedFileCrypt.rotateMasterKey(
                directory: .custom(folder),
                namespace: "secrets",
                from: oldKey,
                to: newKey
            )
            try expectAllSecrets(in: rotated, "after the rotation")
            let headerBytes = try Data(contentsOf: rotated.folderURL.appendingPathComponent(VaultHeader.fileName))
            let items = try itemFiles(rotated).sorted()

            var steps: [MasterKeyRotationStep] = []
            let again = try EncryptedFileCrypt.rotateMasterKey(
                directory: .custom(folder),
                namespace: "secrets",
                from: oldKey,
                to: newKey
            ) { steps.append($0) }
            #expect(steps == [.finished])
            #expect(try Data(contentsOf: rotated.folderURL.appendingPathComponent(VaultHeader.fileName)) == headerBytes)
            #expect(try itemFiles(rotated).sorted() == items)
            try expectAllSecrets(in: again, "after running it again")
        }
    }

    @Test func anEmptyVaultRotates() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .passphrase("old passphrase"))
            var steps: [MasterKeyRotationStep] = []
            let rotated = try store.rotateMasterKey(to: .passphrase("new passphrase")) { steps.append($0) }
            #expect(steps == [.began(itemCount: 0), .switched, .finished])
            #expect(try rotated.keys().isEmpty)
            #expect(try rotated.itemCount() == 0)
            #expect(try header(rotated).rotation == nil)
            #expect(try vault(folder, .passphrase("new passphrase")).keys().isEmpty)
        }
    }

    @Test func aVaultBesideItIsUntouched() async throws {
        try await withTemporaryFolder { folder in
            let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let neighbour = try vault(folder, key, namespace: "neighbour")
            try neighbour.set("theirs", for: CryptKey<String>(key: "their.key"))
            let neighbourFiles = try FileManager.default.contentsOfDirectory(atPath: neighbour.folderURL.path).sorted()
            let neighbourBytes = try neighbourFiles.map {
                try Data(contentsOf: neighbour.folderURL.appendingPathComponent($0))
            }
            let store = try vault(folder, key)
            try fill(store)

            try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))

            #expect(
                try FileManager.default.contentsOfDirectory(atPath: neighbour.folderURL.path).sorted() == neighbourFiles
            )
            #expect(
                try neighbourFiles.map { try Data(contentsOf: neighbour.folderURL.appendingPathComponent($0)) }
                    == neighbourBytes
            )
            #expect(try vault(folder, key, namespace: "neighbour").get(CryptKey<String>(key: "their.key")) == "theirs")
        }
    }

    // MARK: Readers and writers during a rotation

    @Test func storesOfEitherKeyReadEveryStepAndWritesWaitForTheEnd() async throws {
        try await withTemporaryFolder { folder in
            let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let store = try vault(folder, oldKey)
            try fill(store)
            let oldReader = try vault(folder, oldKey)
            let missing = CryptKey<String>(key: "never.stored")
            let path = store.folderURL.path
            var switched = false
            var checkedSteps = 0

            let rotated = try store.rotateMasterKey(to: newKey) { step in
                if step == .switched { switched = true }
                guard step != .finished else { return }
                let context = "at \(step)"
                // A store opened now with the new key reads every item, resealed or not.
                let newReader = try? vault(folder, newKey)
                #expect(newReader != nil, "\(context): the new key opens the vault")
                if let newReader {
                    #expect((try? expectAllSecrets(in: newReader, "\(context), new key")) != nil)
                    #expect((try? newReader.itemCount()) == secrets.count, "\(context)")
                    #expect((try? newReader.get(missing)) == .some(nil), "\(context)")
                    expectError(.rotationInProgress(path: path), context) { try newReader.set("x", for: missing) }
                }
                if !switched {
                    // Until the switch, the old key reads everything, and opens the vault.
                    #expect((try? expectAllSecrets(in: oldReader, "\(context), old key")) != nil)
                    #expect((try? expectAllSecrets(in: vault(folder, oldKey), "\(context), reopened")) != nil)
                    #expect((try? oldReader.itemCount()) == secrets.count, "\(context)")
                    #expect((try? oldReader.get(missing)) == .some(nil), "\(context)")
                } else {
                    expectError(.masterKeyRotated(path: path), context) { _ = try vault(folder, oldKey) }
                    expectError(.masterKeyRotated(path: path), context) { _ = try oldReader.get(missing) }
                    expectError(.masterKeyRotated(path: path), context) { _ = try oldReader.keys() }
                }
                // Writes and removals of either key wait for the end, and change nothing.
                let refusal = CryptStoreError.rotationInProgress(path: path)
                expectError(refusal, context) { try oldReader.set("x", for: missing) }
                expectError(refusal, context) { try oldReader.delete(CryptKey<String>(key: secrets[0].key)) }
                expectError(refusal, context) { try oldReader.deleteAll() }
                expectError(.rotationInProgress(path: path), context) {
                    try vault(folder, newKey).delete(CryptKey<String>(key: secrets[0].key))
                }
                checkedSteps += 1
            }
            #expect(checkedSteps == 2 + 2 * secrets.count)

            try expectAllSecrets(in: rotated, "after the rotation")
            let stale = CryptStoreError.masterKeyRotated(path: path)
            expectError(stale) { _ = try oldReader.get(CryptKey<String>(key: secrets[0].key)) }
            expectError(stale) { _ = try oldReader.contains(CryptKey<String>(key: secrets[0].key)) }
            expectError(stale) { try oldReader.set("x", for: missing) }
            expectError(stale) { _ = try oldReader.itemCount() }
            expectError(stale) { _ = try oldReader.keys() }
            try rotated.set("written", for: missing)
            #expect(try vault(folder, newKey).get(missing) == "written")
        }
    }

    @Test func theHeaderRecordsTheRotationAndItemCountIsItsCountMeanwhile() async throws {
        try await withTemporaryFolder { folder in
            let store = try vault(folder, .symmetric(SymmetricKey(size: .bits256)))
            try fill(store)
            let count = secrets.count
            var phases: [VaultRotation.Phase?] = []
            try store.rotateMasterKey(to: .passphrase("new passphrase")) { step in
                let recorded = try? header(store)
                phases.append(recorded?.rotation?.phase)
                guard step != .finished else { return }
                #expect(recorded?.rotation?.itemCount == count, "at \(step)")
                #expect((try? EncryptedFileCrypt.itemCount(directory: .custom(folder), namespace: "secrets")) == count)
                if case .resealed(let done, _) = step {
                    #expect(recorded?.masterKey == .symmetric, "the old key's until the switch")
                    #expect(recorded?.rotation?.masterKey == .passphrase)
                    #expect((try? itemFiles(store).count) == count + done, "both copies in the folder")
                }
                if case .retired(let done, _) = step {
                    #expect(recorded?.masterKey == .passphrase, "the new key's from the switch")
                    #expect(recorded?.rotation?.masterKey == .symmetric)
                    #expect((try? itemFiles(store).count) == 2 * count - done)
                }
            }
            #expect(phases.first == .resealing)
            #expect(phases.contains(.retiring))
            #expect(phases.last == .some(nil))
        }
    }

    @Test func noSecretKeyNameOrPassphraseIsInTheClearAtAnyStep() async throws {
        try await withTemporaryFolder { folder in
            let passphrases = ["old passphrase words", "new passphrase words"]
            let store = try vault(folder, .passphrase(passphrases[0]))
            try fill(store)
            try vault(folder, .passphrase(passphrases[0]), namespace: "neighbour")
                .set(
                    secrets[0].value,
                    for: CryptKey<String>(key: secrets[0].key)
                )
            expectNothingInTheClear(under: folder, passphrases: passphrases, "before")
            try store.rotateMasterKey(to: .passphrase(passphrases[1])) { step in
                expectNothingInTheClear(under: folder, passphrases: passphrases, "at \(step)")
            }
            expectNothingInTheClear(under: folder, passphrases: passphrases, "after")
        }
    }

    // MARK: Wrong keys and items that cannot move

    @Test func aWrongOldKeyIsRefusedAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let store = try vault(folder, key)
            try fill(store)
            let before = try snapshot(store.folderURL)
            let newURL = folder.appendingPathComponent("new.key")

            expectError(.wrongMasterKey(path: store.folderURL.path, createdWith: .symmetric)) {
                try EncryptedFileCrypt.rotateMasterKey(
                    directory: .custom(folder),
                    namespace: "secrets",
                    from: .symmetric(SymmetricKey(size: .bits256)),
                    to: .keyFile(newURL)
                )
            }
            expectError(.wrongMasterKey(path: store.folderURL.path, createdWith: .symmetric)) {
                try EncryptedFileCrypt.rotateMasterKey(
                    directory: .custom(folder),
                    namespace: "secrets",
                    from: .passphrase("not it"),
                    to: .keyFile(newURL)
                )
            }
            #expect(try snapshot(store.folderURL) == before)
            #expect(!FileManager.default.fileExists(atPath: newURL.path), "no new key file for a refused rotation")
            try expectAllSecrets(in: vault(folder, key), "after the refusals")
        }
    }

    @Test func aNewKeyThatCannotBeUsedIsRefusedAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let key = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(key))
            try fill(store)
            let before = try snapshot(store.folderURL)

            #expect(throws: CryptStoreError.self) { try store.rotateMasterKey(to: .passphrase("")) }
            #expect(throws: CryptStoreError.self) {
                try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .init(bitCount: 64))))
            }
            let shortKeyFile = folder.appendingPathComponent("short.key")
            try Data(count: 8).write(to: shortKeyFile)
            try ForeignFiles.setPermissions(0o600, atPath: shortKeyFile.path)
            #expect(throws: CryptStoreError.self) { try store.rotateMasterKey(to: .keyFile(shortKeyFile)) }
            let openKeyFile = folder.appendingPathComponent("open.key")
            try Data(count: 32).write(to: openKeyFile)
            try ForeignFiles.setPermissions(0o644, atPath: openKeyFile.path)
            expectError(.insecureKeyFile(path: openKeyFile.path, permissions: 0o644)) {
                try store.rotateMasterKey(to: .keyFile(openKeyFile))
            }
            #expect(try snapshot(store.folderURL) == before)

            // The vault's own key: nothing to do.
            var steps: [MasterKeyRotationStep] = []
            try store.rotateMasterKey(to: .symmetric(key)) { steps.append($0) }
            #expect(steps == [.finished])
            #expect(try snapshot(store.folderURL) == before)
        }
    }

    @Test func aDamagedItemStopsTheRotationBeforeAnythingChanges() async throws {
        try await withTemporaryFolder { folder in
            let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
            let store = try vault(folder, key)
            try fill(store)
            let damaged = store.fileURL(for: CryptKey<String>(key: secrets[2].key))
            try VaultItemDamage.flip.applied(to: Data(contentsOf: damaged)).write(to: damaged)
            let before = try snapshot(store.folderURL)

            expectError(.tamperedItem(key: damaged.deletingPathExtension().lastPathComponent)) {
                try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))
            }
            #expect(try snapshot(store.folderURL) == before)
            try store.set("still writable", for: CryptKey<String>(key: "probe"))
        }
    }

    @Test func anItemOfTheFirstFormatStopsTheRotationBeforeAnythingChanges() async throws {
        try await withTemporaryFolder { folder in
            let bytes = SymmetricKey(size: .bits256)
            let store = try vault(folder, .symmetric(bytes))
            try fill(store)
            let legacy = CryptKey<String>(key: "written.by.1x")
            try formatOneItem("old", for: legacy.key, in: store, masterKey: bytes).write(to: store.fileURL(for: legacy))
            let before = try snapshot(store.folderURL)

            #expect {
                try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))
            } throws: { error in
                guard case .encodingFailed(let name, _) = error as? CryptStoreError else { return false }
                return name == store.fileURL(for: legacy).deletingPathExtension().lastPathComponent
            }
            #expect(try snapshot(store.folderURL) == before)
            // Set again, it is listable, and the rotation goes.
            try store.set(try #require(try store.get(legacy)), for: legacy)
            let rotated = try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))
            #expect(try rotated.get(legacy) == "old")
        }
    }

    // MARK: Helpers

    /// Every file of `folder` by name, and its bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// A format-1 item of `secret` for `key`, as versions before sealed names wrote it (see
    /// `EncryptedFileCryptKeysTests`).
    private func formatOneItem(
        _ secret: String,
        for key: String,
        in store: EncryptedFileCrypt,
        masterKey: SymmetricKey
    ) throws -> Data {
        let header = try header(store)
        let itemKey = CryptoPrimitives.deriveKey(
            from: masterKey,
            salt: header.vaultID,
            info: "forge-crypt.v1.item-encryption"
        )
        var associatedData = Data([1])
        associatedData.append(contentsOf: "forge-crypt.v1.item\u{0}".utf8)
        associatedData.append(contentsOf: key.precomposedStringWithCanonicalMapping.utf8)
        var file = Data([1])
        file.append(try CryptoPrimitives.seal(Data(secret.utf8), using: itemKey, authenticating: associatedData))
        return file
    }
}
