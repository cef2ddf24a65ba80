import ForgeStorage
import Foundation

#if Postgres
import ForgePostgres

extension VaultCommand.Rotate {
    /// Moves the secrets of `--namespace` (default `taskflow`, the demo's) in the PostgreSQL database of `url` to the
    /// new key, in one transaction (`PostgresCrypt.rotateMasterKey(to:progress:)`), and tells the steps to `output`.
    ///
    /// The current key is `<root>/master.key` (or `--key-file`, or `--passphrase`), which must exist. Run again after
    /// an interruption, the command finds the namespace on the old key (nothing was applied) or on the new one
    /// (nothing to do).
    ///
    /// - Throws: ``ForgeError/unknownNamespace(_:root:known:)`` when the namespace holds no secrets (the table stores
    ///   namespaces hashed, so none are listed), or the errors of the URL, the keys, the server and
    ///   `PostgresCrypt.rotateMasterKey(to:progress:)`.
    func rotateOnPostgres(url: String, environment: [String: String], to output: inout some CommandOutput) async throws
    {
        let namespace = namespace ?? DemoCommand.postgresNamespace
        let configuration = try PostgresOptions.configuration(url: url, environment: environment)
        // The new key first: a typing mistake is caught before the current key is asked for.
        let new = try newKey.masterKey(environment: environment)
        let old = try vaultKey.masterKey(
            for: DataRoot(url: options.rootURL),
            environment: environment,
            keyFileMustExist: true
        )
        let recorder = StepRecorder()
        let itemCount = try await PostgresOptions.withClient(configuration) { client in
            guard try await PostgresCrypt.itemCount(client: client, namespace: namespace) != nil else {
                throw ForgeError.unknownNamespace(
                    namespace,
                    root: PostgresOptions.location(of: configuration),
                    known: []
                )
            }
            let store = try await PostgresCrypt(client: client, namespace: namespace, masterKey: old)
                .rotateMasterKey(to: new) { await recorder.record($0) }
            return try await store.itemCount()
        }
        Self.report(await recorder.steps, of: namespace, itemCount: itemCount, inOneTransaction: true, to: &output)
    }
}

/// The steps a rotation told, in order.
private actor StepRecorder {
    private(set) var steps: [MasterKeyRotationStep] = []

    func record(_ step: MasterKeyRotationStep) { steps.append(step) }
}
#else
extension VaultCommand.Rotate {
    /// Refuses `--postgres`: this build of `forge` has no PostgreSQL support.
    ///
    /// - Throws: ``ForgeError/builtWithoutPostgres``.
    func rotateOnPostgres(url: String, environment: [String: String], to output: inout some CommandOutput) async throws
    {
        throw ForgeError.builtWithoutPostgres
    }
}
#endif
