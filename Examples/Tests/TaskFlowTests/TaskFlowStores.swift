import ForgeStorage
import Foundation
import Testing

#if SQLite
import ForgeSQLite
#endif

/// The three stores TaskFlow's services take, of one kind, fresh for a test.
struct TaskFlowStores {
    let preferences: any KVStoring
    let files: any FileStoring
    let keychain: any CryptStoring
}

/// A kind of stores TaskFlow's services run on: the service tests run unchanged on each, which proves the services
/// need nothing of a store but its protocol.
enum TaskFlowStoreKind: String, CaseIterable, CustomTestStringConvertible {
    /// The in-memory twins.
    case memory
    /// `DiskKVStore`, `DiskFileStore` and `EncryptedFileCrypt` in one data folder.
    case disk
    /// `SQLiteKVStore`, `SQLiteFileStore` and `SQLiteCrypt` sharing one database file.
    case sqlite

    var testDescription: String { rawValue }

    /// The kinds this build can run the services on: the SQLite stores need the package's `SQLite` trait.
    static var available: [TaskFlowStoreKind] {
        #if SQLite
        allCases
        #else
        allCases.filter { $0 != .sqlite }
        #endif
    }

    /// Runs `body` with fresh stores of this kind, then removes the folder they are in.
    func withStores<Result>(_ body: (TaskFlowStores) async throws -> Result) async throws -> Result {
        switch self {
        case .memory:
            return try await body(
                TaskFlowStores(preferences: InMemoryKVStore(), files: InMemoryFileStore(), keychain: InMemoryCrypt())
            )
        case .disk, .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(try Self.stores(self, in: folder))
        }
    }

    /// Stores of `kind` in `folder`, with the master key file `master.key` in it.
    private static func stores(_ kind: TaskFlowStoreKind, in folder: URL) throws -> TaskFlowStores {
        let masterKey = MasterKey.keyFile(folder.appendingPathComponent("master.key"))
        if kind == .sqlite {
            #if SQLite
            let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
            return TaskFlowStores(
                preferences: SQLiteKVStore(database: database, namespace: "settings"),
                files: SQLiteFileStore(database: database, namespace: "files"),
                keychain: SQLiteCrypt(database: database, namespace: "secrets", masterKey: masterKey)
            )
            #else
            Issue.record("the SQLite stores need the SQLite trait")
            #endif
        }
        return TaskFlowStores(
            preferences: DiskKVStore(directory: .custom(folder), namespace: "settings"),
            files: DiskFileStore(directory: .custom(folder), namespace: "files"),
            keychain: try EncryptedFileCrypt(directory: .custom(folder), namespace: "secrets", masterKey: masterKey)
        )
    }
}
