import ForgeStorage
import Foundation
import TaskFlow

#if SQLite
import ForgeSQLite

extension DemoCommand {
    /// Runs TaskFlow's services on the three SQLite stores sharing the database `fileURL` and shows what they kept.
    ///
    /// The stores are in the namespaces of a data folder's demo (`settings`, `files`, `secrets`), and the services
    /// are the disk demo's, unchanged. The vault's key file is `master.key` beside the database (or `--key-file`, or
    /// `--passphrase`), created when missing as the disk demo creates `<root>/master.key`.
    ///
    /// - Throws: The errors of the master key, the database and the stores; a master key that does not open the
    ///   secrets stops the demo before anything is written.
    func runOnSQLite(
        fileURL: URL,
        environment: [String: String],
        to output: inout some CommandOutput
    ) async throws {
        let keyFolder = SQLiteOptions.keyFolder(of: fileURL)
        let masterKey = try vaultKey.masterKey(for: keyFolder, environment: environment, keyFileMustExist: false)
        let database = SQLiteDatabase(fileURL: fileURL)
        let secrets = SQLiteCrypt(database: database, namespace: DataRoot.secretsNamespace, masterKey: masterKey)
        // The secrets open first: a wrong master key stops the demo before anything is written.
        try secrets.prepare()
        let preferences = SQLiteKVStore(database: database, namespace: DataRoot.settingsNamespace)
        let files = SQLiteFileStore(database: database, namespace: DataRoot.filesNamespace)

        output.write(line: "TaskFlow demo in \(fileURL.path)")
        guard try await runServices(preferences: preferences, files: files, secrets: secrets, to: &output) else {
            return
        }

        output.write(line: "")
        output.write(line: "Stored:")
        for key in try preferences.keys() {
            let report = await KeyReport.read(key, json: preferences.rawJSON(forKey: key), from: preferences)
            output.write(line: "  setting  \(key) = \(report.text)")
        }
        output.write(line: "           in namespace '\(preferences.namespace)' of the database")
        for file in try await files.allFiles() {
            output.write(line: "  file     \(file.path) (\(file.size) bytes)")
        }
        output.write(line: "           in namespace '\(files.namespace)' of the database")
        output.write(
            line: "  secret   \(AuthKeys.accessToken.key), sealed in namespace '\(secrets.namespace)' of the database"
        )
        output.write(line: "           \(Self.masterKeyText(masterKey))")
        output.write(line: "")
        output.write(
            line:
                "Run the demo again to see the kept state; inspect it with `forge inspect --sqlite \(sqlite.file ?? "")`."
        )
    }
}
#else
extension DemoCommand {
    /// Refuses `--sqlite`: this build of `forge` has no SQLite support.
    ///
    /// - Throws: ``ForgeError/builtWithoutSQLite``.
    func runOnSQLite(
        fileURL: URL,
        environment: [String: String],
        to output: inout some CommandOutput
    ) async throws {
        throw ForgeError.builtWithoutSQLite
    }
}
#endif
