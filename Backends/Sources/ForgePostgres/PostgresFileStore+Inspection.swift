public import ForgeFileStore
internal import Foundation
public import PostgresNIO

/// Reading a files table without knowing its paths in advance, for tools that inspect a database (such as the
/// `forge inspect` command of the examples).
extension PostgresFileStore {
    /// Every file of this namespace with its size and the time it was last saved, by the server's clock, sorted by
    /// path as Swift sorts strings, read in one statement.
    ///
    /// The same answer as the walk every other store gets (`AsyncFileBackend/allFiles()`), which would take a
    /// statement per folder and per file.
    ///
    /// - Throws: `FileStoreError.listFailed(path:reason:)` with an empty path.
    public func allFiles() async throws -> [StoredFileInfo] {
        let files = try await perform(.list("")) { [self] connection in
            let query: PostgresQuery = """
                SELECT path, size, modified FROM \(unescaped: table.files) WHERE \
                namespace_hash = sha256(convert_to(\(storedNamespace), 'UTF8')) AND namespace = \(storedNamespace)
                """
            var files: [StoredFileInfo] = []
            let rows = try await connection.query(query, logger: ConnectionLease.logger)
            for try await (path, size, modified) in rows.decode((String, Int64, Date).self) {
                files.append(StoredFileInfo(path: path, size: Int(size), modificationDate: modified))
            }
            return files
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The namespaces that hold a file in `tableName`, each as a store's ``namespace``, sorted.
    ///
    /// Only reads: a table that does not exist yet holds none, and is not created.
    ///
    /// - Throws: `FileStoreError.listFailed(path:reason:)` with an empty path.
    public static func namespaces(
        client: PostgresClient,
        tableName: String = "forge_files",
        connectionWait: Duration = .seconds(10)
    ) async throws -> [String] {
        let table = PostgresFileTable(name: tableName)
        if let failure = table.validationFailure {
            throw FileStoreError.listFailed(path: "", reason: .other(failure))
        }
        let names: [String]
        do {
            names = try await ConnectionLease(client: client, wait: connectionWait)
                .withConnection { connection in
                    guard try await table.isReady(on: connection) else { return [] }
                    let query = PostgresQuery(unsafeSQL: "SELECT DISTINCT namespace FROM \(table.files)")
                    var names: [String] = []
                    let rows = try await connection.query(query, logger: ConnectionLease.logger)
                    for try await name in rows.decode(String.self) { names.append(name) }
                    return names
                }
        } catch {
            throw FileStoreError.listFailed(path: "", reason: FailureReason(postgres: error))
        }
        return Set(names.map(StoredText.text(fromStored:))).sorted()
    }
}
