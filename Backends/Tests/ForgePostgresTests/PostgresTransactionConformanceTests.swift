import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgePostgres
import Foundation
import ForgeStorageTesting
import Testing

/// The behaviour every store that joins a `StorageTransaction` shares (ForgeStorageTesting's suite), run against
/// `PostgresKVStore`, alone and wrapped for events and for faults, against `PostgresFileStore` and `PostgresCrypt`
/// alone, and against the three kinds on one client (an upload, its record and a token committed together), each
/// check on fresh namespaces.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresTransactionConformanceTests {
    /// How the store is seen.
    enum Wrapping: String, CaseIterable, Sendable {
        case none, events, faults
    }

    @Test(arguments: TransactionConformance.checks, Wrapping.allCases)
    func transactionsAreAllOrNothing(check: TransactionConformance.Check, wrapping: Wrapping) async throws {
        try await TestServer.withStores { (stores) async throws in
            let subject =
                switch wrapping {
                case .none: TransactionConformance.Subject(keyValues: stores[0])
                case .events: TransactionConformance.Subject(keyValues: stores[0].reportingEvents { _ in })
                case .faults: TransactionConformance.Subject(keyValues: stores[0].injectingFaults())
                }
            try await check.run(on: subject)
        }
    }

    @Test(arguments: TransactionConformance.checks)
    func fileSavesAreAllOrNothing(check: TransactionConformance.Check) async throws {
        try await TestServer.withFileStores { files, _ in
            try await check.run(on: TransactionConformance.Subject(files: files))
        }
    }

    @Test(arguments: TransactionConformance.checks)
    func secretsAreAllOrNothing(check: TransactionConformance.Check) async throws {
        try await TestServer.withCrypts { secrets in
            try await check.run(on: TransactionConformance.Subject(secrets: secrets[0]))
        }
    }

    @Test(arguments: TransactionConformance.checks)
    func theThreeKindsOfOneClientCommitTogether(check: TransactionConformance.Check) async throws {
        try await TestServer.withFileStores { files, _ in
            let namespace = "test-\(UUID().uuidString)"
            let settings = PostgresKVStore(client: files.client, namespace: namespace)
            let secrets = PostgresCrypt(
                client: files.client,
                namespace: namespace,
                masterKey: .symmetric(SymmetricKey(size: .bits256))
            )
            do {
                try await check.run(
                    on: TransactionConformance.Subject(keyValues: settings, files: files, secrets: secrets)
                )
            } catch {
                try? await settings.removeAll()
                try? await secrets.deleteAll()
                throw error
            }
            try await settings.removeAll()
            try await secrets.deleteAll()
        }
    }
}
