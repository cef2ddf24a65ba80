import ArgumentParser
import ForgeStorage
import Foundation

/// The options of `vault rotate` that choose the vault's new master key: a new key file, or a new passphrase.
///
/// As for the current key (``VaultKeyOptions``), a passphrase is never an argument: it is read from the environment
/// variable ``passphraseVariable``, or typed twice at a prompt on the terminal.
struct NewVaultKeyOptions: ParsableArguments {
    /// The environment variable `--new-passphrase` reads the new passphrase from, when it is set.
    static let passphraseVariable = "FORGE_NEW_PASSPHRASE"

    @Option(help: ArgumentHelp("The new master key file, created when it does not exist.", valueName: "file"))
    var newKeyFile: String?

    @Flag(
        help: """
            Move the vault to a new passphrase: the value of FORGE_NEW_PASSPHRASE, or typed twice at a prompt \
            when it is not set.
            """
    )
    var newPassphrase = false

    /// The new master key the options choose.
    ///
    /// - Parameter environment: The environment variables, where ``passphraseVariable`` is looked for.
    /// - Returns: The new key file (`--new-key-file`), or the new passphrase (`--new-passphrase`).
    /// - Throws: ``ForgeError/missingNewMasterKey``, ``ForgeError/conflictingMasterKeys``,
    ///   ``ForgeError/emptyPassphrase``, ``ForgeError/passphrasesDiffer`` or ``ForgeError/noPassphraseSource(variable:)``.
    func masterKey(environment: [String: String]) throws(ForgeError) -> MasterKey {
        switch (newKeyFile, newPassphrase) {
        case (nil, false):
            throw .missingNewMasterKey
        case (.some, true):
            throw .conflictingMasterKeys
        case (.some(let path), false):
            return .keyFile(URL(fileURLWithPath: path))
        case (nil, true):
            let text: String
            if let value = environment[Self.passphraseVariable] {
                text = value
            } else if let typed = PassphrasePrompt.ask("New passphrase: ") {
                guard PassphrasePrompt.ask("New passphrase again: ") == typed else { throw .passphrasesDiffer }
                text = typed
            } else {
                throw .noPassphraseSource(variable: Self.passphraseVariable)
            }
            guard !text.isEmpty else { throw .emptyPassphrase }
            return .passphrase(text)
        }
    }
}
