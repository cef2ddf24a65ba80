import ForgeStorage
import Foundation

#if SQLite
import ForgeSQLite

extension VaultCommand.Rotate {
    /// Moves the secrets of `--namespace` (default `secrets`, the demo's) in the SQLite database `fileURL` to the new
    /// key, in one transaction (`SQLiteCrypt.rotateMasterKey(to:progress:)`), and tells the steps to `output`.
    ///
    /// The current key is the key file beside the database (or `--key-file`, or `--passphrase`), which must exist. Run
    /// again after an interruption, the command finds the namespace on the old key (nothing was applied) or on the new
    /// one (nothing to do).
    ///
    /// - Throws: ``ForgeError/missingDatabase(_:)`` when the file does not exist (it is never created),
    ///   ``ForgeError/unknownNamespace(_:root:known:)`` when the namespace holds no secrets, or the errors of the keys,
    ///   the database and `SQLiteCrypt.rotateMasterKey(to:progress:)`.
    func rotateOnSQLite(fileURL: URL, environment: [String: String], to output: inout some CommandOutput) throws {
        let namespace = namespace ?? DataRoot.secretsNamespace
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            throw ForgeError.missingDatabase(fileURL.path)
        }
        let database = SQLiteDatabase(fileURL: fileURL)
        guard try SQLiteCrypt.itemCount(database: database, namespace: namespace) != nil else {
            throw ForgeError.unknownNamespace(
                namespace,
                root: fileURL.path,
                known: try SQLiteCrypt.namespaces(database: database)
            )
        }
        // The new key first: a typing mistake is caught before the current key is asked for.
        let new = try newKey.masterKey(environment: environment)
        let old = try vaultKey.masterKey(
            for: SQLiteOptions.keyFolder(of: fileURL),
            environment: environment,
            keyFileMustExist: true
        )
        var steps: [MasterKeyRotationStep] = []
        let store = try SQLiteCrypt(database: database, namespace: namespace, masterKey: old)
            .rotateMasterKey(to: new) { steps.append($0) }
        Self.report(steps, of: namespace, itemCount: try store.itemCount(), inOneTransaction: true, to: &output)
    }
}
#else
extension VaultCommand.Rotate {
    /// Refuses `--sqlite`: this build of `forge` has no SQLite support.
    ///
    /// - Throws: ``ForgeError/builtWithoutSQLite``.
    func rotateOnSQLite(fileURL: URL, environment: [String: String], to output: inout some CommandOutput) throws {
        throw ForgeError.builtWithoutSQLite
    }
}
#endif
