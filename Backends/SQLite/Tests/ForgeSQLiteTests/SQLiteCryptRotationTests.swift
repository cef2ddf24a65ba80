import ForgeSQLite
import Foundation
import GRDB
import Testing

/// Changing a namespace's master key in one transaction: each kind of key, what other stores read meanwhile and after,
/// wrong keys, an empty namespace, the rows beside it, and that no secret or name is in the database's files in the
/// clear at any step.
struct SQLiteCryptRotationTests {
    /// The kinds of master key a rotation goes from and to.
    enum KeyKind: String, CaseIterable, CustomStringConvertible, Sendable {
        case keyFile, symmetric, passphrase

        var description: String { rawValue }

        /// A new key of this kind: `name` names the key file or is in the passphrase.
        func makeKey(_ name: String, in folder: URL) -> MasterKey {
            switch self {
            case .keyFile: .keyFile(folder.appendingPathComponent("keys/\(name).key"))
            case .symmetric: .symmetric(SymmetricKey(size: .bits256))
            case .passphrase: .passphrase("correct horse \(name) battery")
            }
        }
    }

    /// The secrets every test stores: key names and values that a scan of the files must never find.
    static let secrets = (0..<6).map { (key: "account.name-\($0)", value: "s3cr3t-value-\($0)") }

    private func fill(_ store: SQLiteCrypt) throws {
        for secret in Self.secrets { try store.set(secret.value, for: CryptKey<String>(key: secret.key)) }
    }

    /// Whether `store` reads every secret and lists every key.
    static func readsEverySecret(_ store: SQLiteCrypt) -> Bool {
        secrets.allSatisfy { (try? store.get(CryptKey<String>(key: $0.key))) == $0.value }
            && (try? store.keys()) == secrets.map(\.key).sorted()
    }

    /// Every row of the secrets table, by namespace and item, read as another program would.
    static func rows(_ file: URL) throws -> [String: Data] {
        let other = try DatabaseQueue(path: file.path)
        return try other.read { db in
            var rows: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT namespace, item, sealed FROM forge_secrets") {
                let namespace = String(decoding: row["namespace"] as Data, as: UTF8.self)
                rows["\(namespace)/\(row["item"] as String)"] = row["sealed"] as Data
            }
            return rows
        }
    }

    private func rows(_ file: URL) throws -> [String: Data] { try Self.rows(file) }

    // MARK: Each kind of key

    @Test(arguments: KeyKind.allCases, KeyKind.allCases)
    func aNamespaceMovesFromEachKindOfMasterKeyToEachOther(from: KeyKind, to: KeyKind) async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let oldKey = from.makeKey("old", in: folder)
            let newKey = to.makeKey("new", in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey)
            try fill(store)

            var steps: [MasterKeyRotationStep] = []
            let rotated = try store.rotateMasterKey(to: newKey) { steps.append($0) }

            let count = Self.secrets.count
            let resealed = (1...count).map { MasterKeyRotationStep.resealed($0, of: count) }
            #expect(steps == [.began(itemCount: count)] + resealed + [.switched, .finished])
            #expect(Self.readsEverySecret(rotated))
            #expect(Self.readsEverySecret(SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: newKey)))
            #expect(try rotated.itemCount() == count)
            #expect(throws: CryptStoreError.self) {
                try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey).prepare()
            }
            try rotated.set("later", for: CryptKey<String>(key: "after.rotation"))
            #expect(
                try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: newKey)
                    .get(CryptKey<String>(key: "after.rotation")) == "later"
            )
        }
    }

    @Test func runningItAgainFindsItDoneAndChangesNothing() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let oldKey = testMasterKey(1)
            let newKey = testMasterKey(2)
            try fill(SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey))
            try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey).rotateMasterKey(to: newKey)
            let before = try rows(file)

            var steps: [MasterKeyRotationStep] = []
            let again = try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey)
                .rotateMasterKey(to: newKey) { steps.append($0) }
            #expect(steps == [.finished])
            #expect(try rows(file) == before)
            #expect(Self.readsEverySecret(again))
        }
    }

    @Test func anEmptyNamespaceRotates() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase("old words"))
            try store.prepare()
            var steps: [MasterKeyRotationStep] = []
            let rotated = try store.rotateMasterKey(to: .passphrase("new words")) { steps.append($0) }
            #expect(steps == [.began(itemCount: 0), .switched, .finished])
            #expect(try rotated.keys().isEmpty)
            #expect(
                try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase("new words")).keys().isEmpty
            )
        }
    }

    @Test func theNamespaceBesideItAndTheOtherTablesAreUntouched() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let database = SQLiteDatabase(fileURL: file)
            let key = testMasterKey(1)
            let beside = SQLiteCrypt(database: database, namespace: "beside", masterKey: key)
            try beside.set("theirs", for: CryptKey<String>(key: "their.key"))
            let settings = SQLiteKVStore(database: database, namespace: "secrets")
            try settings.set(KVKey<String>("setting"), value: "kept")
            let store = SQLiteCrypt(database: database, namespace: "secrets", masterKey: key)
            try fill(store)
            let besideRows = try rows(file).filter { $0.key.hasPrefix("beside/") }

            try store.rotateMasterKey(to: testMasterKey(2))

            #expect(try rows(file).filter { $0.key.hasPrefix("beside/") } == besideRows)
            #expect(try beside.get(CryptKey<String>(key: "their.key")) == "theirs")
            #expect(settings.get(KVKey<String>("setting")) == "kept")
        }
    }

    // MARK: The store in use

    @Test func theRotatingStoreAndItsCopiesGoOnWithTheNewKey() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1))
            let logged = store.reportingEvents { _ in }  // what a service holds: a copy, wrapped
            let copy = store
            try fill(store)

            try store.rotateMasterKey(to: testMasterKey(2))

            #expect(Self.readsEverySecret(store))
            #expect(Self.readsEverySecret(copy))
            #expect(try logged.get(CryptKey<String>(key: Self.secrets[0].key)) == Self.secrets[0].value)
            try logged.set("later", for: CryptKey<String>(key: "after.rotation"))
            let reopened = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(2))
            #expect(try reopened.get(CryptKey<String>(key: "after.rotation")) == "later", "sealed under the new key")
            #expect(throws: CryptStoreError.self, "another instance on the old key is refused") {
                try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1)).keys()
            }
        }
    }

    // MARK: Readers during and after

    @Test func storesOfTheOldKeyReadUntilTheCommitAndAreToldAfterIt() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let oldKey = testMasterKey(1)
            let newKey = testMasterKey(2)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey)
            try fill(store)
            // Another handle, on connections of its own, as another process would be.
            let reader = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: oldKey)
            try reader.prepare()
            let missing = CryptKey<String>(key: "never.stored")
            var checked = 0

            let rotated = try store.rotateMasterKey(to: newKey) { step in
                guard case .resealed = step else { return }
                // Inside the transaction: the reader's snapshot is the old key's, whole.
                #expect(Self.readsEverySecret(reader), "at \(step)")
                #expect((try? reader.itemCount()) == Self.secrets.count, "at \(step)")
                #expect((try? reader.get(missing)) == .some(nil), "at \(step)")
                checked += 1
            }
            #expect(checked == Self.secrets.count)

            let path = "SQLite database '\(file.path)', namespace 'secrets'"
            let stale = CryptStoreError.masterKeyRotated(path: path)
            #expect(throws: stale) { try reader.get(CryptKey<String>(key: Self.secrets[0].key)) }
            #expect(throws: stale) { try reader.contains(CryptKey<String>(key: Self.secrets[0].key)) }
            #expect(throws: stale) { try reader.set("x", for: missing) }
            #expect(throws: stale) { try reader.delete(CryptKey<String>(key: Self.secrets[0].key)) }
            #expect(throws: stale) { try reader.deleteAll() }
            #expect(throws: stale) { try reader.keys() }
            #expect(throws: stale) { try reader.itemCount() }
            #expect(Self.readsEverySecret(rotated))
            #expect(Self.readsEverySecret(SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: newKey)))
        }
    }

    @Test func noSecretKeyNameOrPassphraseIsInTheFilesInTheClearAtAnyStep() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let passphrases = ["old passphrase words", "new passphrase words"]
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: .passphrase(passphrases[0]))
            try fill(store)
            let needles = Self.secrets.flatMap { [$0.key, $0.value] } + passphrases
            let scan = { (context: String) in
                for suffix in ["", "-wal", "-shm"] {
                    guard let bytes = FileManager.default.contents(atPath: file.path + suffix) else { continue }
                    for needle in needles where bytes.range(of: Data(needle.utf8)) != nil {
                        Issue.record("\(context): the file\(suffix) holds '\(needle)' in the clear")
                    }
                }
            }
            scan("before")
            try store.rotateMasterKey(to: .passphrase(passphrases[1])) { scan("at \($0)") }
            scan("after")
        }
    }

    // MARK: Wrong keys

    @Test func aWrongOldKeyIsRefusedAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            try fill(SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1)))
            let before = try rows(file)
            let newKeyFile = folder.appendingPathComponent("new.key")

            let wrong = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(3))
            #expect(
                throws: CryptStoreError.wrongMasterKey(
                    path: "SQLite database '\(file.path)', namespace 'secrets'",
                    createdWith: .symmetric
                )
            ) { try wrong.rotateMasterKey(to: .keyFile(newKeyFile)) }
            #expect(try rows(file) == before)
            #expect(!FileManager.default.fileExists(atPath: newKeyFile.path))
        }
    }

    @Test func aNewKeyThatCannotBeUsedIsRefusedAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1))
            try fill(store)
            let before = try rows(file)

            #expect(throws: CryptStoreError.invalidMasterKey(reason: "the passphrase is empty")) {
                try store.rotateMasterKey(to: .passphrase(""))
            }
            #expect(throws: CryptStoreError.self) {
                try store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .init(bitCount: 64))))
            }
            #expect(try rows(file) == before)
            var steps: [MasterKeyRotationStep] = []
            try store.rotateMasterKey(to: testMasterKey(1)) { steps.append($0) }
            #expect(steps == [.finished])
            #expect(try rows(file) == before)
        }
    }

    @Test func aDamagedRowStopsTheRotationAndNothingChanges() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: testMasterKey(1))
            try fill(store)
            let damaged = try #require(rows(file).keys.first { !$0.hasSuffix("/header") })
            let item = String(damaged.dropFirst("secrets/".count))
            try DatabaseQueue(path: file.path)
                .write { db in
                    try db.execute(
                        sql: "UPDATE forge_secrets SET sealed = x'00' || sealed WHERE item = ?",
                        arguments: [item]
                    )
                }
            let before = try rows(file)

            #expect(throws: CryptStoreError.tamperedItem(key: item)) {
                try store.rotateMasterKey(to: testMasterKey(2))
            }
            #expect(try rows(file) == before)
        }
    }
}
