import ForgeSQLite
import Foundation
import Testing

/// The sample of inspection that the ForgeSQLite catalog quotes from here, run.
struct SQLiteInspectionSampleTests {
    @Test func theSampleListsWhatADatabaseHoldsWithoutChangingIt() async throws {
        try await withTemporaryFolder { folder in
            let fileURL = folder.appendingPathComponent("taskflow.sqlite")
            let writer = SQLiteDatabase(fileURL: fileURL)
            try SQLiteKVStore(database: writer, namespace: "settings").set(KVKey<Int>("count"), value: 1)
            try SQLiteCrypt(database: writer, namespace: "auth", masterKey: testMasterKey())
                .set("s3cr3t", for: CryptKey<String>(key: "token"))
            let before = FileManager.default.contents(atPath: fileURL.path)

            let database = SQLiteDatabase(fileURL: fileURL, readOnly: true)
            var report: [String] = []
            for namespace in try SQLiteKVStore.namespaces(database: database) {
                let keys = try SQLiteKVStore(database: database, namespace: namespace).keys()
                report.append("\(namespace): \(keys.count) key(s) in \(SQLiteKVStore.tableName)")
            }
            for namespace in try SQLiteFileStore.namespaces(database: database) {
                let files = try SQLiteFileStore(database: database, namespace: namespace).allFiles()
                report.append("\(namespace): \(files.count) file(s) in \(SQLiteFileStore.tableName)")
            }
            for namespace in try SQLiteCrypt.namespaces(database: database) {
                let count = try SQLiteCrypt.itemCount(database: database, namespace: namespace) ?? 0
                report.append("\(namespace): \(count) secret(s) in \(SQLiteCrypt.tableName)")
            }

            #expect(report == ["settings: 1 key(s) in forge_kv", "auth: 1 secret(s) in forge_secrets"])
            #expect(FileManager.default.contents(atPath: fileURL.path) == before)
        }
    }
}
