import ForgeCore
import ForgeCrypt
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A master-key rotation is a call like any other through the seam: events report it, a test's faults fail it before
/// anything changes and the operation log records it, on a wrapped store and on the twin alike; and the twin rotates
/// in the asynchronous form a server's store (`PostgresCrypt`) has.
struct RotationThroughTheSeamTests {
    private let token = CryptKey<String>(key: "token")

    private static func succeeded(_ outcome: StoreEvent.Outcome) -> Bool {
        if case .succeeded = outcome { true } else { false }
    }

    /// A service that rotates a server's secrets, written against the asynchronous protocols.
    private static func rotate(
        _ secrets: some AsyncCryptStoring & AsyncMasterKeyRotating,
        to newKey: MasterKey
    ) async throws -> [MasterKeyRotationStep] {
        let steps = LockedState<[MasterKeyRotationStep]>([])
        try await secrets.rotateMasterKey(to: newKey) { step in steps.withLock { $0.append(step) } }
        return steps.withLock { $0 }
    }

    /// The steps of a rotation through `MasterKeyRotating`.
    private static func rotateSynchronously(
        _ secrets: some MasterKeyRotating,
        to newKey: MasterKey
    ) throws -> [MasterKeyRotationStep] {
        var steps: [MasterKeyRotationStep] = []
        try secrets.rotateMasterKey(to: newKey) { steps.append($0) }
        return steps
    }

    @Test func aRotationIsReportedAsOneCallNamingNoKey() async throws {
        try await withTemporaryFolder { folder in
            let events = RecordedEvents()
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "v",
                masterKey: .passphrase("one")
            )
            .reportingEvents(label: "tokens", to: events.handler)
            try vault.set("s3cr3t", for: token)
            try vault.rotateMasterKey(to: .passphrase("two"))
            #expect(throws: CryptStoreError.self) { try vault.rotateMasterKey(to: .passphrase("")) }

            let rotations = events.calls.filter { $0.event.operation == .rotateMasterKey }
            #expect(rotations.count == 2)
            #expect(rotations.allSatisfy { $0.event.store == .secrets && $0.event.label == "tokens" })
            #expect(rotations.map { Self.succeeded($0.call.outcome) } == [true, false])
            #expect(try vault.get(token) == "s3cr3t")
        }
    }

    @Test func aFaultFailsTheRotationOfAWrappedVaultBeforeAnythingChanges() async throws {
        try await withTemporaryFolder { folder in
            let faults = StoreFaults()
            let log = OperationLog()
            let vault = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "v",
                masterKey: .passphrase("one")
            )
            let wrapped = vault.injectingFaults(faults, log: log, label: "tokens")
            try wrapped.set("s3cr3t", for: token)
            faults.failNext(.rotateMasterKey, with: .outOfSpace)

            #expect(throws: CryptStoreError.writeFailed(key: "", underlying: .outOfSpace)) {
                try wrapped.rotateMasterKey(to: .passphrase("two"))
            }
            let reopened = try EncryptedFileCrypt(
                directory: .custom(folder),
                namespace: "v",
                masterKey: .passphrase("one")
            )
            #expect(try reopened.get(token) == "s3cr3t", "the vault still has its old key")
            #expect(log.entries(.rotateMasterKey).map(\.failed) == [true])

            try wrapped.rotateMasterKey(to: .passphrase("two"))
            #expect(log.entries(.rotateMasterKey).map(\.failed) == [true, false])
            #expect(throws: CryptStoreError.self) {
                try EncryptedFileCrypt(directory: .custom(folder), namespace: "v", masterKey: .passphrase("one"))
                    .get(token)
            }
        }
    }

    @Test func theTwinMeetsTheSameFaultsAndLogsItsRotation() async throws {
        let faults = StoreFaults()
        let log = OperationLog()
        let twin = InMemoryCrypt(label: "tokens", faults: faults, log: log)
        try twin.set("s3cr3t", for: token)
        faults.failNext(.rotateMasterKey, with: .outOfSpace)

        await #expect(throws: CryptStoreError.writeFailed(key: "", underlying: .outOfSpace)) {
            try await Self.rotate(twin, to: .passphrase("two"))
        }
        #expect(log.entries(.rotateMasterKey).map(\.failed) == [true])
        let steps = try await Self.rotate(twin, to: .passphrase("two"))
        #expect(steps == [.began(itemCount: 1), .resealed(1, of: 1), .switched, .finished])
        #expect(try twin.get(token) == "s3cr3t")
    }

    @Test func theTwinRotatesInTheAsynchronousFormAsInTheSynchronousOne() async throws {
        let twin = try InMemoryCrypt(masterKey: .passphrase("one"))
        try twin.set("s3cr3t", for: token)
        let copy = try InMemoryCrypt(masterKey: .passphrase("one"))
        try copy.set("s3cr3t", for: token)
        let synchronousSteps = try Self.rotateSynchronously(copy, to: .passphrase("two"))

        #expect(try await Self.rotate(twin, to: .passphrase("two")) == synchronousSteps)
        #expect(try await Self.rotate(twin, to: .passphrase("two")) == [.finished], "it has the key now")
        await #expect(throws: CryptStoreError.self) { try await Self.rotate(twin, to: .passphrase("")) }
    }
}
