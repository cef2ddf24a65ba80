import ForgeCrypt
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A rotation whose connection the server ends (`pg_terminate_backend`, from another connection) inside its
/// transaction, before any row is written, after the first statement's rows, or after every row but before the header
/// and the commit: the namespace stays on the old key, every secret reads with it as it was, and the same rotation run
/// again finishes.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(2)), .serialized)
struct PostgresCryptKilledRotationTests {
    /// A table of these tests' own, so that the rotation is the one transaction holding its locks.
    static let tableName = "forge_secrets_rotation_killed"
    /// More secrets than one statement of a rotation writes.
    static let count = 520

    /// Where in the rotation its connection is ended: when it tells this step.
    enum KillPoint: String, CaseIterable, CustomStringConvertible, Sendable {
        case beforeAnyRow, afterTheFirstStatement, afterEveryRow

        var description: String { rawValue }

        var step: MasterKeyRotationStep {
            switch self {
            case .beforeAnyRow: .began(itemCount: PostgresCryptKilledRotationTests.count)
            case .afterTheFirstStatement: .resealed(1, of: PostgresCryptKilledRotationTests.count)
            case .afterEveryRow:
                .resealed(PostgresCryptKilledRotationTests.count, of: PostgresCryptKilledRotationTests.count)
            }
        }
    }

    @Test(arguments: KillPoint.allCases)
    func aRotationWhoseConnectionIsKilledLeavesTheOldKeyAndARerunFinishesIt(at point: KillPoint) async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: oldKey, tableName: Self.tableName) { stores in
            let store = stores[0]
            let secrets = RotatedSecrets(count: Self.count)
            try await secrets.fill(store)
            let before = try await TestServer.secretRows(
                of: store.namespace,
                tableName: Self.tableName,
                client: store.client
            )

            let killed = try await TestServer.withClient { admin in
                let kills = KillCount()
                let error = await #expect(throws: CryptStoreError.self) {
                    try await store.rotateMasterKey(to: newKey) { step in
                        guard step == point.step else { return }
                        // The rotation's transaction is the one transaction on the table: end its connection, and
                        // go on once the server has ended it.
                        do {
                            for pid in try await TestServer.transactionsHolding(Self.tableName, admin: admin) {
                                try await TestServer.terminateBackendAndWait(pid, admin: admin)
                                await kills.increment()
                            }
                        } catch {
                            Issue.record(error)
                        }
                    }
                }
                if case .openFailed(let path, _) = error {
                    #expect(path == store.location)
                } else {
                    Issue.record("expected openFailed naming the namespace, got \(String(describing: error))")
                }
                return await kills.count
            }
            #expect(killed == 1, "one transaction held the table")

            // Nothing was applied: the rows are as they were, and the old key reads them, in the store that rotated
            // and in one opened afresh; the new key does not open the namespace.
            let after = try await TestServer.secretRows(
                of: store.namespace,
                tableName: Self.tableName,
                client: store.client
            )
            #expect(after == before)
            #expect(try await secrets.areAllRead(by: store))
            #expect(try await secrets.areAllRead(by: store.reopened(with: oldKey)))
            await #expect(throws: CryptStoreError.self) { try await store.reopened(with: newKey).prepare() }
            try await store.set("written after the kill", for: CryptKey<String>(key: "after.kill"))

            // The same rotation, run again, finishes.
            let rotated = try await store.rotateMasterKey(to: newKey)
            #expect(try await secrets.areAllRead(by: store.reopened(with: newKey), others: ["after.kill"]))
            #expect(try await rotated.get(CryptKey<String>(key: "after.kill")) == "written after the kill")
            await #expect(throws: CryptStoreError.self) { try await store.reopened(with: oldKey).prepare() }
        }
    }
}

/// How many connections a test ended.
private actor KillCount {
    private(set) var count = 0

    func increment() { count += 1 }
}
