import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// Other stores while a rotation runs and after it commits: a reader on its own connections reads every secret whole
/// throughout (the old key's until the commit, then the new key's), a write of the old key waits for the commit and is
/// then refused, and every call of a store still on the old key names the rotation.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(2)), .serialized)
struct PostgresCryptRotationConcurrencyTests {
    /// A table of these tests' own, so that the rotation is the one transaction holding its locks.
    static let tableName = "forge_secrets_rotation_concurrency"

    @Test func aReaderReadsEachSecretWholeBeforeTheCommitAndAfterIt() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(2, masterKey: oldKey, tableName: Self.tableName) { stores in
            let (store, reader) = (stores[0], stores[1])
            // More than one statement's batch, so that the rotation writes in several statements.
            let secrets = RotatedSecrets(count: 700)
            try await secrets.fill(store)
            try await reader.prepare()
            let passes = ReadPasses()
            // Reads every secret again and again, with the old key until it is told of the rotation, then with the
            // new key, once.
            let reading = Task {
                var current = reader
                var onNewKey = false
                while true {
                    do {
                        for secret in secrets.secrets {
                            let value = try await current.get(CryptKey<String>(key: secret.key))
                            #expect(value == secret.value, "\(secret.key), new key: \(onNewKey)")
                        }
                        await passes.finished(onNewKey: onNewKey)
                        if onNewKey { return }
                    } catch CryptStoreError.masterKeyRotated {
                        #expect(!onNewKey)
                        current = reader.reopened(with: newKey)
                        onNewKey = true
                    }
                }
            }

            let rotated = try await store.rotateMasterKey(to: newKey) { step in
                switch step {
                case .began:
                    // Inside the transaction: the reader's snapshot is the old key's, whole.
                    #expect((try? await secrets.areAllRead(by: reader)) == true)
                    #expect((try? await reader.get(CryptKey<String>(key: "never.stored"))) == .some(nil))
                case .resealed(let done, let total) where done == total:
                    // Every row is written: the reader still reads the old key's rows, and a whole pass of it ran
                    // while the rows were being written.
                    #expect((try? await secrets.areAllRead(by: reader)) == true)
                    #expect((try? await reader.itemCount()) == total)
                    await passes.waitForOldKeyPasses(await passes.oldKeyPasses + 2)
                default:
                    break
                }
            }

            try await reading.value
            #expect(await passes.newKeyPasses == 1)
            #expect(try await secrets.areAllRead(by: rotated))
        }
    }

    @Test func aWriteOfTheOldKeyDuringTheRotationWaitsForItThenIsRefused() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(2, masterKey: oldKey, tableName: Self.tableName) { stores in
            let (store, writer) = (stores[0], stores[1])
            let secrets = RotatedSecrets(count: 3)
            try await secrets.fill(store)
            try await writer.prepare()
            let late = CryptKey<String>(key: "written.during.rotation")
            let overwritten = CryptKey<String>(key: secrets.secrets[0].key)
            let writes = WriteBox()

            let rotated = try await TestServer.withClient { admin in
                try await store.rotateMasterKey(to: newKey) { step in
                    guard case .began = step else { return }
                    // A new secret and an overwrite, each in flight (its statement waiting on the header row) when
                    // the rotation goes on.
                    await writes.keep(Task { try await writer.set("sealed under the old key", for: late) })
                    await writes.keep(Task { try await writer.set("overwritten under the old key", for: overwritten) })
                    guard let rotation = try? await TestServer.transactionsHolding(Self.tableName, admin: admin).first
                    else {
                        Issue.record("no transaction holds the table during the rotation")
                        return
                    }
                    #expect(await TestServer.waitForStatements(2, waitingOn: rotation, admin: admin))
                }
            }

            for write in await writes.tasks {
                await #expect(throws: CryptStoreError.masterKeyRotated(path: writer.location)) { try await write.value }
            }
            #expect(try await rotated.get(late) == nil)
            #expect(try await secrets.areAllRead(by: rotated))
            #expect(try await secrets.areAllRead(by: store.reopened(with: newKey)))
        }
    }

    @Test func everyCallOfAStoreStillOnTheOldKeyNamesTheRotation() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(2, masterKey: oldKey, tableName: Self.tableName) { stores in
            let (store, stale) = (stores[0], stores[1])
            let secrets = RotatedSecrets(count: 3)
            try await secrets.fill(store)
            try await stale.prepare()
            let before = try await stale.keys()

            let rotated = try await store.rotateMasterKey(to: newKey)

            let rotatedError = CryptStoreError.masterKeyRotated(path: stale.location)
            let stored = CryptKey<String>(key: secrets.secrets[0].key)
            let missing = CryptKey<String>(key: "never.stored")
            #expect(before == secrets.secrets.map(\.key).sorted())
            await #expect(throws: rotatedError) { try await stale.get(stored) }
            await #expect(throws: rotatedError) { try await stale.get(missing) }
            await #expect(throws: rotatedError) { try await stale.contains(stored) }
            await #expect(throws: rotatedError) { try await stale.set("x", for: missing) }
            await #expect(throws: rotatedError) { try await stale.set("x", for: stored) }
            await #expect(throws: rotatedError) { try await stale.delete(stored) }
            await #expect(throws: rotatedError) { try await stale.deleteAll() }
            await #expect(throws: rotatedError) { try await stale.keys() }
            await #expect(throws: rotatedError) { try await stale.itemCount() }
            // Nothing the stale store was asked changed a secret.
            #expect(try await secrets.areAllRead(by: rotated))
            #expect(try await rotated.get(missing) == nil)
            // A store opened afresh with the old key does not open the namespace.
            await #expect(throws: CryptStoreError.self) { try await store.reopened(with: oldKey).prepare() }
        }
    }
}

/// The whole passes of the reader of a rotation, and the waits for them.
private actor ReadPasses {
    private(set) var oldKeyPasses = 0
    private(set) var newKeyPasses = 0
    private var waiters: [(passes: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Records a whole pass of the reader.
    func finished(onNewKey: Bool) {
        if onNewKey {
            newKeyPasses += 1
        } else {
            oldKeyPasses += 1
        }
        let ready = waiters.filter { $0.passes <= oldKeyPasses }
        waiters.removeAll { $0.passes <= oldKeyPasses }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once the reader made `passes` whole passes with the old key.
    func waitForOldKeyPasses(_ passes: Int) async {
        guard oldKeyPasses < passes else { return }
        await withCheckedContinuation { waiters.append((passes, $0)) }
    }
}

/// The writes a rotation's progress started.
private actor WriteBox {
    private(set) var tasks: [Task<Void, any Error>] = []

    func keep(_ task: Task<Void, any Error>) { tasks.append(task) }
}

extension TestServer {
    /// Whether `count` statements wait on locks that the backend `holder` holds, polled for at most 20 seconds (as
    /// ``backendWaiting(on:admin:)`` polls).
    static func waitForStatements(_ count: Int, waitingOn holder: Int32, admin: PostgresClient) async -> Bool {
        let query: PostgresQuery = """
            SELECT count(*)::int FROM pg_stat_activity WHERE \(holder) = ANY(pg_blocking_pids(pid))
            """
        let deadline = ContinuousClock.now + .seconds(20)
        do {
            while ContinuousClock.now < deadline {
                for try await waiting in try await admin.query(query).decode(Int.self) where waiting >= count {
                    return true
                }
                // The statements have not reached the server yet: look again shortly.
                try await Task.sleep(for: .milliseconds(20))
            }
        } catch {
            Issue.record(error)
        }
        return false
    }
}
