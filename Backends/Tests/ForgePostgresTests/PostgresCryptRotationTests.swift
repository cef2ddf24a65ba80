import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Changing a namespace's master key in one transaction: no, one and many secrets (more than one statement's batch),
/// each kind of key to each other, a rerun, the same key, wrong keys, a damaged row, and the namespaces beside it.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(2)))
struct PostgresCryptRotationTests {
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

    @Test func theRotatingStoreAndItsCopiesGoOnWithTheNewKey() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: oldKey) { stores in
            let store = stores[0]
            let logged = store.reportingEvents { _ in }  // what a service holds: a copy, wrapped
            let key = CryptKey<String>(key: "token")
            try await store.set("t0k3n", for: key)

            try await store.rotateMasterKey(to: newKey)

            #expect(try await store.get(key) == "t0k3n")
            #expect(try await logged.get(key) == "t0k3n")
            try await logged.set("later", for: CryptKey<String>(key: "after.rotation"))
            let reopened = PostgresCrypt(client: store.client, namespace: store.namespace, masterKey: newKey)
            #expect(try await reopened.get(CryptKey<String>(key: "after.rotation")) == "later")
            await #expect(throws: CryptStoreError.self, "another instance on the old key is refused") {
                try await PostgresCrypt(client: store.client, namespace: store.namespace, masterKey: oldKey).keys()
            }
        }
    }

    @Test(arguments: [0, 1, 1_201])
    func everySecretMovesToTheNewKey(count: Int) async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: oldKey) { stores in
            let store = stores[0]
            let secrets = RotatedSecrets(count: count)
            try await secrets.fill(store)
            try await store.prepare()

            let steps = StepLog()
            let rotated = try await store.rotateMasterKey(to: newKey) { await steps.append($0) }

            let resealed = count == 0 ? [] : (1...count).map { MasterKeyRotationStep.resealed($0, of: count) }
            #expect(await steps.steps == [.began(itemCount: count)] + resealed + [.switched, .finished])
            #expect(try await secrets.areAllRead(by: rotated))
            let reopened = store.reopened(with: newKey)
            #expect(try await secrets.areAllRead(by: reopened))
            #expect(try await rotated.itemCount() == count)
            let rows = try await TestServer.secretRows(of: store.namespace, client: store.client)
            #expect(rows.count == count + 1, "one row per secret, and the header")
            await #expect(throws: CryptStoreError.self) { try await store.reopened(with: oldKey).prepare() }

            try await rotated.set("later", for: CryptKey<String>(key: "after.rotation"))
            #expect(try await reopened.get(CryptKey<String>(key: "after.rotation")) == "later")
        }
    }

    @Test(arguments: KeyKind.allCases, KeyKind.allCases)
    func eachKindOfKeyMovesToEachOther(from: KeyKind, to: KeyKind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "forge-rotation-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let oldKey = from.makeKey("old", in: folder)
        let newKey = to.makeKey("new", in: folder)
        try await TestServer.withRotatedCrypts(masterKey: oldKey) { stores in
            let secrets = RotatedSecrets(count: 3)
            try await secrets.fill(stores[0])

            let rotated = try await stores[0].rotateMasterKey(to: newKey)

            #expect(try await secrets.areAllRead(by: rotated))
            #expect(try await secrets.areAllRead(by: stores[0].reopened(with: newKey)))
            await #expect(throws: CryptStoreError.self) { try await stores[0].reopened(with: oldKey).prepare() }
        }
    }

    @Test func runningItAgainFindsItDoneAndChangesNothing() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: oldKey) { stores in
            let store = stores[0]
            let secrets = RotatedSecrets(count: 4)
            try await secrets.fill(store)
            try await store.rotateMasterKey(to: newKey)
            let before = try await TestServer.secretRows(of: store.namespace, client: store.client)

            // The store that rotated, and a store opened afresh with the old key, as a rerun of a tool would be.
            for again in [store, store.reopened(with: oldKey)] {
                let steps = StepLog()
                let rotated = try await again.rotateMasterKey(to: newKey) { await steps.append($0) }
                #expect(await steps.steps == [.finished])
                #expect(try await secrets.areAllRead(by: rotated))
            }
            #expect(try await TestServer.secretRows(of: store.namespace, client: store.client) == before)
        }
    }

    @Test func rotatingToTheKeyItHasChangesNothing() async throws {
        let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: key) { stores in
            let store = stores[0]
            let secrets = RotatedSecrets(count: 2)
            try await secrets.fill(store)
            let before = try await TestServer.secretRows(of: store.namespace, client: store.client)

            let steps = StepLog()
            let same = try await store.rotateMasterKey(to: key) { await steps.append($0) }

            #expect(await steps.steps == [.finished])
            #expect(try await TestServer.secretRows(of: store.namespace, client: store.client) == before)
            #expect(try await secrets.areAllRead(by: same))
            #expect(try await secrets.areAllRead(by: store))
        }
    }

    @Test func aWrongCurrentKeyIsRefusedAndNothingChanges() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "forge-rotation-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            try await RotatedSecrets(count: 2).fill(store)
            let before = try await TestServer.secretRows(of: store.namespace, client: store.client)
            let newKeyFile = folder.appendingPathComponent("new.key")

            let wrong = store.reopened(with: .symmetric(SymmetricKey(size: .bits256)))
            await #expect(throws: CryptStoreError.wrongMasterKey(path: store.location, createdWith: .symmetric)) {
                try await wrong.rotateMasterKey(to: .keyFile(newKeyFile))
            }
            #expect(try await TestServer.secretRows(of: store.namespace, client: store.client) == before)
            #expect(!FileManager.default.fileExists(atPath: newKeyFile.path), "no new key file for a refused rotation")
        }
    }

    @Test func aNewKeyThatCannotBeUsedIsRefusedAndNothingChanges() async throws {
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            let secrets = RotatedSecrets(count: 2)
            try await secrets.fill(store)
            let before = try await TestServer.secretRows(of: store.namespace, client: store.client)

            await #expect(throws: CryptStoreError.invalidMasterKey(reason: "the passphrase is empty")) {
                try await store.rotateMasterKey(to: .passphrase(""))
            }
            await #expect(throws: CryptStoreError.self) {
                try await store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .init(bitCount: 64))))
            }
            #expect(try await TestServer.secretRows(of: store.namespace, client: store.client) == before)
            #expect(try await secrets.areAllRead(by: store))
        }
    }

    @Test func aDamagedRowStopsTheRotationAndNothingChanges() async throws {
        try await TestServer.withCrypts { stores in
            let store = stores[0]
            try await RotatedSecrets(count: 3).fill(store)
            let rows = try await TestServer.secretRows(of: store.namespace, client: store.client)
            let item = try #require(rows.keys.sorted().first { $0 != "header" })
            let namespace = Data(store.namespace.utf8)
            _ = try await store.client.query(
                """
                UPDATE forge_secrets SET sealed = '\\x00'::bytea || sealed \
                WHERE namespace = sha256(\(namespace)) AND item = \(item)
                """
            )
            let before = try await TestServer.secretRows(of: store.namespace, client: store.client)

            await #expect(throws: CryptStoreError.tamperedItem(key: item)) {
                try await store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))
            }
            #expect(try await TestServer.secretRows(of: store.namespace, client: store.client) == before)
        }
    }

    @Test func theNamespacesBesideItAreUntouched() async throws {
        let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: key) { stores in
            let store = stores[0]
            let beside = PostgresCrypt(client: store.client, namespace: store.namespace + "-beside", masterKey: key)
            try await beside.set("theirs", for: CryptKey<String>(key: "their.key"))
            try await RotatedSecrets(count: 3).fill(store)
            let besideRows = try await TestServer.secretRows(of: beside.namespace, client: store.client)

            try await store.rotateMasterKey(to: .symmetric(SymmetricKey(size: .bits256)))

            #expect(try await TestServer.secretRows(of: beside.namespace, client: store.client) == besideRows)
            #expect(try await beside.get(CryptKey<String>(key: "their.key")) == "theirs")
            try await beside.set("still theirs", for: CryptKey<String>(key: "their.key"))
            try await TestServer.removeNamespace(of: beside)
        }
    }
}

/// The secrets a rotation test stores, and how it checks that a store reads them.
struct RotatedSecrets: Sendable {
    /// Each secret's key and value.
    let secrets: [(key: String, value: String)]

    init(count: Int) {
        secrets = (0..<count).map { (key: "account.name-\($0)", value: "s3cr3t-value-\($0)") }
    }

    /// Stores every secret in `store`.
    func fill(_ store: PostgresCrypt) async throws {
        for secret in secrets { try await store.set(secret.value, for: CryptKey<String>(key: secret.key)) }
    }

    /// Whether `store` reads every secret whole and lists every key, and the keys of `others` alone beside them.
    func areAllRead(by store: PostgresCrypt, others: [String] = []) async throws -> Bool {
        for secret in secrets where try await store.get(CryptKey<String>(key: secret.key)) != secret.value {
            return false
        }
        return try await store.keys() == (secrets.map(\.key) + others).sorted()
    }
}

/// The steps a rotation told, in order.
actor StepLog {
    private(set) var steps: [MasterKeyRotationStep] = []

    func append(_ step: MasterKeyRotationStep) { steps.append(step) }
}

extension PostgresCrypt {
    /// Where the store's secrets are, as its errors name them.
    var location: String { "PostgreSQL table '\(tableName)', namespace '\(namespace)'" }

    /// A store of the same client, namespace and table, opened afresh with `masterKey`, as another server would.
    func reopened(with masterKey: MasterKey) -> PostgresCrypt {
        PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey, tableName: tableName)
    }
}

extension TestServer {
    /// Runs `body` with `count` secrets stores on one new namespace of `tableName`, each with its own client and
    /// `masterKey`, and removes every row of the namespace after, its header too (a store of the old key can no longer
    /// remove the secrets of a namespace that was rotated).
    static func withRotatedCrypts(
        _ count: Int = 1,
        masterKey: MasterKey = .symmetric(SymmetricKey(size: .bits256)),
        tableName: String = "forge_secrets",
        _ body: ([PostgresCrypt]) async throws -> Void
    ) async throws {
        try await withCrypts(count, masterKey: masterKey, tableName: tableName, cleanUp: removeNamespace, body)
    }

    /// Removes every row of `store`'s namespace, its header too.
    static func removeNamespace(of store: PostgresCrypt) async throws {
        let namespace = Data(store.namespace.precomposedStringWithCanonicalMapping.utf8)
        _ = try await store.client.query(
            PostgresQuery(
                unsafeSQL: "DELETE FROM \"\(store.tableName)\" WHERE namespace = sha256($1)",
                binds: try {
                    var bindings = PostgresBindings()
                    try bindings.append(namespace)
                    return bindings
                }()
            )
        )
    }
}
