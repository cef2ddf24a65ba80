import ArgumentParser
import ForgeStorage
import Foundation

/// `forge vault`: look after a vault of the data folder.
struct VaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Look after an encrypted vault of a data folder.",
        subcommands: [Rotate.self]
    )

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a vault to a new master key: a new key file or a new passphrase.",
            discussion: """
                Every secret is sealed again under the new key; other programs keep reading the vault meanwhile, \
                and their writes are refused until the rotation ends. The vault opens with the current key (the \
                key file, --key-file, default <root>/master.key, or --passphrase) and moves to --new-key-file \
                FILE (created when it does not exist) or --new-passphrase (the value of FORGE_NEW_PASSPHRASE, or \
                typed twice). If the rotation is interrupted, run the same command again: it finishes it. Keep \
                the old key until it ends. Example: forge vault rotate --new-key-file ~/keys/master-2026.key. \
                With --sqlite FILE, the secrets of a namespace of a SQLite database file move in one transaction \
                (the key file is master.key beside FILE unless --key-file names another), and with --postgres URL \
                those of a PostgreSQL database's secrets table (namespace taskflow unless --namespace names \
                another); writers wait for the commit, and an interrupted rotation changed nothing.
                """
        )

        @OptionGroup var options: RootOptions

        @Option(
            help: ArgumentHelp(
                "The vault's namespace (default: secrets; with --postgres, taskflow).",
                valueName: "name"
            )
        )
        var namespace: String?

        @OptionGroup var vaultKey: VaultKeyOptions

        @OptionGroup var newKey: NewVaultKeyOptions

        @OptionGroup var postgres: PostgresOptions

        @OptionGroup var sqlite: SQLiteOptions

        func validate() throws {
            try sqlite.validate(postgres: postgres, root: options)
        }

        func run() async throws {
            var output = StandardOutput()
            try await run(environment: ProcessInfo.processInfo.environment, to: &output)
        }

        /// Rotates the vault, reading passphrases from `environment` when the options ask for them, and tells the
        /// steps to `output`.
        ///
        /// - Throws: The errors of the folder, the namespace (``ForgeError/wrongKind(namespace:kind:expected:)`` when
        ///   it is not a vault), the keys, and `EncryptedFileCrypt.rotateMasterKey(directory:namespace:from:to:)`.
        func run(environment: [String: String], to output: inout some CommandOutput) async throws {
            if let url = postgres.url {
                return try await rotateOnPostgres(url: url, environment: environment, to: &output)
            }
            if let fileURL = sqlite.fileURL {
                return try rotateOnSQLite(fileURL: fileURL, environment: environment, to: &output)
            }
            let namespace = namespace ?? DataRoot.secretsNamespace
            let root = try options.existingRoot()
            let kind = try root.kind(of: namespace)
            guard kind == .vault else { throw ForgeError.wrongKind(namespace: namespace, kind: kind, expected: .vault) }
            // The new key first: a typing mistake is caught before the current key is asked for.
            let new = try newKey.masterKey(environment: environment)
            let old = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: true)
            var steps: [MasterKeyRotationStep] = []
            let store = try EncryptedFileCrypt.rotateMasterKey(
                directory: root.directory,
                namespace: namespace,
                from: old,
                to: new
            ) { steps.append($0) }
            Self.report(steps, of: namespace, itemCount: try store.itemCount(), inOneTransaction: false, to: &output)
        }

        /// Writes what a rotation of `namespace` did, from the `steps` it told, and the `itemCount` the namespace
        /// holds after it.
        ///
        /// - Parameters:
        ///   - steps: The steps the rotation told, in order.
        ///   - namespace: The namespace rotated.
        ///   - itemCount: The number of secrets the namespace holds after the rotation.
        ///   - inOneTransaction: Whether the store rotates in one database transaction, whose commit is the switch to
        ///     the new key, rather than in the vault's phases.
        ///   - output: Where the lines are written.
        static func report(
            _ steps: [MasterKeyRotationStep],
            of namespace: String,
            itemCount: Int,
            inOneTransaction: Bool,
            to output: inout some CommandOutput
        ) {
            var wrote = false
            for step in steps {
                switch step {
                case .began(let count):
                    let items = "\(count) item\(count == 1 ? "" : "s")"
                    output.write(
                        line: inOneTransaction
                            ? "Sealing \(items) of '\(namespace)' under the new key, in one transaction…"
                            : "Sealing \(items) of '\(namespace)' under the new key…"
                    )
                case .switched:
                    output.write(
                        line: inOneTransaction
                            ? "Committed: the new key is the key of '\(namespace)'."
                            : "The new key is the vault's key; removing the old key's items…"
                    )
                case .finished:
                    output.write(line: wrote ? "Done." : "'\(namespace)' already has this key: nothing to do.")
                case .resealed, .retired:
                    continue
                }
                wrote = true
            }
            output.write(
                line: "'\(namespace)' opens with the new key only: \(itemCount) item\(itemCount == 1 ? "" : "s")."
            )
        }
    }
}
