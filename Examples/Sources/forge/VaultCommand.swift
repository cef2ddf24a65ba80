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
                the old key until it ends. Example: forge vault rotate --new-key-file ~/keys/master-2026.key.
                """
        )

        @OptionGroup var options: RootOptions

        @Option(help: ArgumentHelp("The vault's namespace.", valueName: "name"))
        var namespace = DataRoot.secretsNamespace

        @OptionGroup var vaultKey: VaultKeyOptions

        @OptionGroup var newKey: NewVaultKeyOptions

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
            let root = try options.existingRoot()
            let kind = try root.kind(of: namespace)
            guard kind == .vault else { throw ForgeError.wrongKind(namespace: namespace, kind: kind, expected: .vault) }
            // The new key first: a typing mistake is caught before the current key is asked for.
            let new = try newKey.masterKey(environment: environment)
            let old = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: true)
            var lines: [String] = []
            let store = try EncryptedFileCrypt.rotateMasterKey(
                directory: root.directory,
                namespace: namespace,
                from: old,
                to: new
            ) { step in
                switch step {
                case .began(let count):
                    lines.append("Sealing \(count) item\(count == 1 ? "" : "s") of '\(namespace)' under the new key…")
                case .switched:
                    lines.append("The new key is the vault's key; removing the old key's items…")
                case .finished:
                    lines.append(lines.isEmpty ? "'\(namespace)' already has this key: nothing to do." : "Done.")
                case .resealed, .retired:
                    break
                }
            }
            for line in lines { output.write(line: line) }
            let count = try store.itemCount()
            output.write(line: "'\(namespace)' opens with the new key only: \(count) item\(count == 1 ? "" : "s").")
        }
    }
}
