import ArgumentParser
import ForgeStorage
import Foundation

/// The options of every command that opens a vault: the master key file (the default), or a passphrase.
///
/// A passphrase is never an argument, which every user of the machine can see in `ps`: it is read from the
/// environment variable ``passphraseVariable``, or typed at a prompt on the terminal.
struct VaultKeyOptions: ParsableArguments {
    /// The environment variable `--passphrase` reads the passphrase from, when it is set.
    static let passphraseVariable = "FORGE_PASSPHRASE"

    @Option(help: ArgumentHelp("The vault's master key file (default: <root>/master.key).", valueName: "file"))
    var keyFile: String?

    @Flag(
        help: """
            Open the vault with a passphrase instead of a key file: the value of FORGE_PASSPHRASE, or typed \
            at a prompt when it is not set.
            """
    )
    var passphrase = false

    /// The master key the options choose for the vaults of `root`.
    ///
    /// - Parameters:
    ///   - root: The data folder, whose `master.key` is the default key file.
    ///   - environment: The environment variables, where ``passphraseVariable`` is looked for.
    ///   - keyFileMustExist: Whether a missing key file is refused (a command that only reads) rather than
    ///     left for the vault to create (the demo).
    /// - Returns: A passphrase with `--passphrase`, otherwise the key file (`--key-file` or `<root>/master.key`).
    /// - Throws: ``ForgeError/conflictingMasterKeys``, ``ForgeError/missingKeyFile(_:)``,
    ///   ``ForgeError/emptyPassphrase`` or ``ForgeError/noPassphraseSource(variable:)``.
    func masterKey(
        for root: DataRoot,
        environment: [String: String],
        keyFileMustExist: Bool
    ) throws(ForgeError) -> MasterKey {
        if passphrase {
            guard keyFile == nil else { throw .conflictingMasterKeys }
            let text: String
            if let value = environment[Self.passphraseVariable] {
                text = value
            } else if let typed = PassphrasePrompt.ask("Passphrase: ") {
                text = typed
            } else {
                throw .noPassphraseSource(variable: Self.passphraseVariable)
            }
            guard !text.isEmpty else { throw .emptyPassphrase }
            return .passphrase(text)
        }
        let url = keyFile.map { URL(fileURLWithPath: $0) } ?? root.defaultKeyFile
        // Opening with a missing key file would create a new key: a command that only reads refuses instead.
        guard !keyFileMustExist || FileManager.default.fileExists(atPath: url.path) else {
            throw .missingKeyFile(url.path)
        }
        return .keyFile(url)
    }
}
