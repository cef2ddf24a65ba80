import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// The SQLite stores pass the transaction conformance suite: the three kinds on one database, in namespaces of their
/// own, and each kind alone, with every store `.atomic` and with every store `.flushed`; and the three wrapped for
/// events and for faults, which keep their transactions.
struct SQLiteTransactionConformanceTests {
    /// The stores a check runs on: the three kinds together, and each alone.
    enum Kinds: String, CaseIterable, Sendable {
        case all, keyValues, files, secrets, reporting, faulting

        /// Fresh stores of `database` with `durability`.
        func subject(of database: SQLiteDatabase, durability: Durability) -> TransactionConformance.Subject {
            let keyValues = SQLiteKVStore(database: database, namespace: "settings", durability: durability)
            let files = SQLiteFileStore(database: database, namespace: "attachments", durability: durability)
            let secrets = SQLiteCrypt(
                database: database,
                namespace: "auth",
                masterKey: testMasterKey(),
                durability: durability
            )
            return switch self {
            case .all: .init(keyValues: keyValues, files: files, secrets: secrets)
            case .keyValues: .init(keyValues: keyValues)
            case .files: .init(files: files)
            case .secrets: .init(secrets: secrets)
            case .reporting:
                .init(
                    keyValues: keyValues.reportingEvents { _ in },
                    files: files.reportingEvents { _ in },
                    secrets: secrets.reportingEvents { _ in }
                )
            case .faulting:
                .init(
                    keyValues: keyValues.injectingFaults(),
                    files: files.injectingFaults(),
                    secrets: secrets.injectingFaults()
                )
            }
        }
    }

    @Test(arguments: Kinds.allCases, TransactionConformance.checks)
    func atomicStoresOfOneDatabaseShareTransactions(_ kinds: Kinds, _ check: TransactionConformance.Check) async throws
    {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            try await check.run(on: kinds.subject(of: database, durability: .atomic))
        }
    }

    @Test(arguments: Kinds.allCases, TransactionConformance.checks)
    func flushedStoresOfOneDatabaseShareTransactions(_ kinds: Kinds, _ check: TransactionConformance.Check) async throws
    {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            try await check.run(on: kinds.subject(of: database, durability: .flushed))
        }
    }
}
