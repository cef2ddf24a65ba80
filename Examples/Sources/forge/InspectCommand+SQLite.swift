import ForgeStorage
import Foundation

#if SQLite
import ForgeSQLite

extension InspectCommand {
    /// The reports of the namespaces of the SQLite database `fileURL` (or of `--namespace` alone), as a data folder's
    /// are shown: a namespace holding keys, files and secrets gives a report of each.
    ///
    /// The database is opened read-only, so inspecting it changes nothing: no table is made, no byte of the file or
    /// its log is written. Its namespaces come from ForgeSQLite's inspection, and secrets stay hidden as in a folder's
    /// vault: their count, read without the master key, and the `--reveal` keys opened with the key file beside the
    /// database (or `--key-file`, or `--passphrase`).
    ///
    /// - Throws: ``ForgeError/missingDatabase(_:)`` when the file does not exist (it is never created),
    ///   ``ForgeError/unknownNamespace(_:root:known:)`` when `--namespace` names one the database does not hold, or the
    ///   errors of the database, the stores and the master key.
    func sqliteReports(fileURL: URL, environment: [String: String]) async throws -> [NamespaceReport] {
        let database = SQLiteDatabase(fileURL: fileURL, readOnly: true)
        do {
            try database.prepare()
        } catch SQLiteStoreError.openFailed(_, underlying: .notFound) {
            throw ForgeError.missingDatabase(fileURL.path)
        }
        let keyValue = try SQLiteKVStore.namespaces(database: database)
        let files = try SQLiteFileStore.namespaces(database: database)
        let secrets = try SQLiteCrypt.namespaces(database: database)
        let known = Set(keyValue + files + secrets).sorted()
        if let namespace, !known.contains(namespace) {
            throw ForgeError.unknownNamespace(namespace, root: fileURL.path, known: known)
        }
        var masterKey: MasterKey?
        var reports: [NamespaceReport] = []
        for name in namespace.map({ [$0] }) ?? known {
            if keyValue.contains(name) {
                let store = SQLiteKVStore(database: database, namespace: name)
                var values: [KeyReport] = []
                for key in try store.keys() {
                    values.append(await KeyReport.read(key, json: store.rawJSON(forKey: key), from: store))
                }
                reports.append(
                    NamespaceReport(
                        name: name,
                        kind: .keyValue,
                        folder: "table \(SQLiteKVStore.tableName)",
                        content: .values(values)
                    )
                )
            }
            if files.contains(name) {
                let store = SQLiteFileStore(database: database, namespace: name)
                reports.append(
                    NamespaceReport(
                        name: name,
                        kind: .files,
                        folder: "table \(SQLiteFileStore.tableName)",
                        content: .files(try await store.allFiles())
                    )
                )
            }
            guard let count = try SQLiteCrypt.itemCount(database: database, namespace: name) else { continue }
            // The key is chosen at the first secrets, so a passphrase is asked for once and only when needed.
            if !revealedKeys.isEmpty, masterKey == nil {
                masterKey = try vaultKey.masterKey(
                    for: SQLiteOptions.keyFolder(of: fileURL),
                    environment: environment,
                    keyFileMustExist: true
                )
            }
            var revealed: [(key: String, secret: String?)] = []
            if let masterKey {
                let store = SQLiteCrypt(database: database, namespace: name, masterKey: masterKey)
                for key in revealedKeys {
                    revealed.append((key, try store.get(CryptKey<Data>(key: key)).map(Self.secretText)))
                }
            }
            reports.append(
                NamespaceReport(
                    name: name,
                    kind: .vault,
                    folder: "table \(SQLiteCrypt.tableName)",
                    content: .vault(itemCount: count, revealed: revealed)
                )
            )
        }
        return reports
    }
}
#else
extension InspectCommand {
    /// Refuses `--sqlite`: this build of `forge` has no SQLite support.
    ///
    /// - Throws: ``ForgeError/builtWithoutSQLite``.
    func sqliteReports(fileURL: URL, environment: [String: String]) async throws -> [NamespaceReport] {
        throw ForgeError.builtWithoutSQLite
    }
}
#endif
