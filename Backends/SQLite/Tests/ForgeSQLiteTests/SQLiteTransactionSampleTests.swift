import ForgeSQLite
import Foundation
import Testing

/// The keys the transactions sample names, as an app declares them.
private enum TaskKeys {
    static let taskCount = KVKey<Int>("taskflow.taskCount")
}

/// The secret the transactions sample names, as an app declares it.
private enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}

/// The sample of transactions that the ForgeSQLite catalog quotes from here, run.
struct SQLiteTransactionSampleTests {
    @Test func theSampleChangesTheThreeStoresOfOneDatabaseAsOne() async throws {
        try await withTemporaryFolder { folder in
            let masterKey = testMasterKey()
            let report = Data("{}".utf8)

            let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
            let settings = SQLiteKVStore(database: database, namespace: "settings")
            let attachments = SQLiteFileStore(database: database, namespace: "attachments")
            let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: masterKey)

            try await StorageTransaction.run { transaction in
                try transaction.set(TaskKeys.taskCount, value: 42, in: settings)
                try transaction.save(report, to: "reports/latest.json", in: attachments)
                try transaction.set("s3cr3t", for: AuthKeys.accessToken, in: secrets)
            }

            #expect(settings.get(TaskKeys.taskCount) == 42)
            #expect(try await attachments.load("reports/latest.json") == report)
            #expect(try secrets.get(AuthKeys.accessToken) == "s3cr3t")
        }
    }
}
