import ForgeStorage
import Foundation

#if Postgres
import ForgePostgres

extension InspectCommand {
    /// Where the database of `url` is, as the report shows it, and the reports of the namespaces of its three store
    /// tables (or of `--namespace` alone): a namespace holding keys, files and secrets gives a report of each.
    ///
    /// The secrets table stores its namespaces hashed, so a namespace that holds only secrets is shown when
    /// `--namespace` names it. Secrets stay hidden as in a folder's vault: their count, and the `--reveal` keys
    /// opened with the master key.
    func postgresReports(
        url: String,
        environment: [String: String]
    ) async throws -> (location: String, reports: [NamespaceReport]) {
        let configuration = try PostgresOptions.configuration(url: url, environment: environment)
        let location = PostgresOptions.location(of: configuration)
        return try await PostgresOptions.withClient(configuration) { client in
            let keyValue = try await PostgresKVStore.namespaces(client: client)
            let files = try await PostgresFileStore.namespaces(client: client)
            let namespaces = namespace.map { [$0] } ?? Set(keyValue + files).sorted()
            var masterKey: MasterKey?
            var reports: [NamespaceReport] = []
            for name in namespaces {
                if keyValue.contains(name) {
                    let store = PostgresKVStore(client: client, namespace: name)
                    var values: [KeyReport] = []
                    for key in try await store.keys() {
                        values.append(
                            await KeyReport.read(key, json: try await store.rawJSON(forKey: key), from: store)
                        )
                    }
                    reports.append(
                        NamespaceReport(
                            name: name,
                            kind: .keyValue,
                            folder: "table \(store.tableName)",
                            content: .values(values)
                        )
                    )
                }
                if files.contains(name) {
                    let store = PostgresFileStore(client: client, namespace: name)
                    reports.append(
                        NamespaceReport(
                            name: name,
                            kind: .files,
                            folder: "table \(store.tableName)",
                            content: .files(try await store.allFiles())
                        )
                    )
                }
                guard let count = try await PostgresCrypt.itemCount(client: client, namespace: name) else { continue }
                // The key is chosen at the first secrets, so a passphrase is asked for once and only when needed.
                if !revealedKeys.isEmpty, masterKey == nil {
                    let root = DataRoot(url: options.rootURL)
                    masterKey = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: true)
                }
                var revealed: [(key: String, secret: String?)] = []
                if let masterKey {
                    let store = PostgresCrypt(client: client, namespace: name, masterKey: masterKey)
                    for key in revealedKeys {
                        revealed.append((key, try await store.get(CryptKey<Data>(key: key)).map(Self.secretText)))
                    }
                }
                reports.append(
                    NamespaceReport(
                        name: name,
                        kind: .vault,
                        folder: "table forge_secrets",
                        content: .vault(itemCount: count, revealed: revealed)
                    )
                )
            }
            return (location, reports)
        }
    }
}
#else
extension InspectCommand {
    /// Refuses `--postgres`: this build of `forge` has no PostgreSQL support.
    ///
    /// - Throws: ``ForgeError/builtWithoutPostgres``.
    func postgresReports(
        url: String,
        environment: [String: String]
    ) async throws -> (location: String, reports: [NamespaceReport]) {
        throw ForgeError.builtWithoutPostgres
    }
}
#endif
