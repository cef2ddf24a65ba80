import ForgeSQLite
import ForgeStorageTesting
import Foundation
import Testing

/// SQLiteCrypt passes the whole conformance suite, sync and async, alone and seen through the seam: a second handle is
/// a store of a second `SQLiteDatabase` on the same file with the same master key (as another process would open it),
/// the neighbour another namespace in the same database.
struct SQLiteCryptConformanceTests {
    @Test(arguments: Seam.allCases)
    func passesTheConformanceSuites(seam: Seam) async throws {
        try await withTemporaryFolder { folder in
            await CryptStoringConformance.runInBothForms {
                let file = databaseFile(in: folder)
                let key = testMasterKey()
                let database = SQLiteDatabase(fileURL: file)
                return StoreSubject(
                    seam.secrets(SQLiteCrypt(database: database, namespace: "secrets", masterKey: key)),
                    reopen: { seam.secrets(SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)) },
                    neighbour: SQLiteCrypt(database: database, namespace: "neighbour", masterKey: key)
                )
            }
        }
    }

    /// Stores that do not flush, whose second handle shares the database, and whose neighbour has a master key of its
    /// own.
    @Test func passesTheConformanceSuiteAtomicOnASharedDatabase() async throws {
        try await withTemporaryFolder { folder in
            await CryptStoringConformance.run(makeSubject: {
                let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
                let key = testMasterKey()
                return CryptStoringConformance.Subject(
                    SQLiteCrypt(database: database, namespace: "secrets", masterKey: key, durability: .atomic),
                    reopen: { SQLiteCrypt(database: database, namespace: "secrets", masterKey: key) },
                    neighbour: SQLiteCrypt(database: database, namespace: "neighbour", masterKey: testMasterKey())
                )
            })
        }
    }
}
