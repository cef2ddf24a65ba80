import Foundation

/// A failure `forge` explains to its user; the command exits with a non-zero status.
enum ForgeError: Error, Equatable, CustomStringConvertible {
    case missingRoot(String)
    case unknownNamespace(String, root: String, known: [String])
    case wrongKind(namespace: String, kind: StoreKind, expected: StoreKind)
    case missingKey(String, namespace: String)
    /// An empty key was given to a command that reads, writes or reveals one.
    case emptyKey
    /// `files ls` named a folder that holds nothing: folders exist only while they hold a file.
    case missingFolder(String, namespace: String)
    /// `files cat` would write a file that is not plain text to a terminal.
    case binaryToTerminal(path: String)
    case corruptValue(key: String, namespace: String)
    /// The value of a key TaskFlow declares is JSON, but does not decode as the type TaskFlow reads it as, even
    /// through the key's migrations: the app's `get` reads it as nil, its `value(for:)` throws.
    case undecodableValue(key: String, namespace: String, type: String, reason: String)
    case notJSON(String)
    case missingKeyFile(String)
    /// No secret is stored under the `--reveal` keys in any of the vaults inspected (which may be none).
    case missingSecrets([String], vaults: [String])
    /// Both `--key-file` and `--passphrase` were given, or both `--new-key-file` and `--new-passphrase`.
    case conflictingMasterKeys
    /// `vault rotate` was given neither `--new-key-file` nor `--new-passphrase`.
    case missingNewMasterKey
    /// The new passphrase typed the second time is not the one typed first.
    case passphrasesDiffer
    /// The passphrase (typed or from the environment variable) is empty.
    case emptyPassphrase
    /// `--passphrase` was given, the environment variable is not set and there is no terminal to ask on.
    case noPassphraseSource(variable: String)
    case problemsFound(Int)
    /// `--postgres` was given to a `forge` built without the package's `Postgres` trait.
    case builtWithoutPostgres
    /// `--sqlite` was given to a `forge` built without the package's `SQLite` trait.
    case builtWithoutSQLite
    /// `inspect --sqlite` named a database file that does not exist: inspecting never creates one.
    case missingDatabase(String)

    var description: String {
        switch self {
        case .missingRoot(let path):
            "No data folder at '\(path)'. Run `forge demo --root \(path)` to create one, or pass --root."
        case .unknownNamespace(let name, let root, let known):
            "No namespace '\(name)' in '\(root)'. "
                + (known.isEmpty ? "The folder holds no store." : "Namespaces: \(known.joined(separator: ", ")).")
        case .wrongKind(let namespace, let kind, let expected):
            "Namespace '\(namespace)' is \(kind.article) \(kind.name), not \(expected.article) \(expected.name)."
        case .missingKey(let key, let namespace):
            "No value for key '\(key)' in namespace '\(namespace)'."
        case .emptyKey:
            "The key is empty. Name a key of at least one character."
        case .missingFolder(let path, let namespace):
            "No folder '\(path)' in namespace '\(namespace)'. Run `forge files ls` to see the top folder."
        case .binaryToTerminal(let path):
            "'\(path)' is not plain text (it is not UTF-8, or holds control characters), so it is not written "
                + "to the terminal. Pass --hex for a hex dump or --raw for its bytes, or redirect the output: "
                + "forge files cat \(path) > FILE."
        case .corruptValue(let key, let namespace):
            "The file of key '\(key)' in namespace '\(namespace)' is corrupt: it does not hold JSON."
        case .undecodableValue(let key, let namespace, let type, let reason):
            "The value of key '\(key)' in namespace '\(namespace)' does not decode as \(type), the type TaskFlow "
                + "reads it as, so TaskFlow cannot read it: \(reason)"
        case .notJSON(let text):
            "'\(text)' is not JSON. Quote strings ('\"text\"'), or pass --string to store the text as a string."
        case .missingKeyFile(let path):
            "No master key file at '\(path)'. Pass --key-file with the vault's key file, "
                + "or --passphrase for a vault made with a passphrase."
        case .missingSecrets(let keys, let vaults):
            Self.missingSecretsText(keys: keys, vaults: vaults)
        case .conflictingMasterKeys:
            "Pass either --key-file or --passphrase (and either --new-key-file or --new-passphrase): a vault opens "
                + "with one kind of master key."
        case .missingNewMasterKey:
            "Pass the new master key: --new-key-file FILE, or --new-passphrase."
        case .passphrasesDiffer:
            "The two new passphrases differ; nothing was changed."
        case .emptyPassphrase:
            "The passphrase is empty."
        case .noPassphraseSource(let variable):
            "No passphrase: set \(variable), or run forge in a terminal to type it."
        case .problemsFound(let count):
            "\(count) problem\(count == 1 ? "" : "s") found; see above."
        case .builtWithoutPostgres:
            """
            This forge was built without PostgreSQL support. Build it with the Postgres trait: \
            swift run --package-path Examples --traits Postgres forge …
            """
        case .builtWithoutSQLite:
            """
            This forge was built without SQLite support. Build it with the SQLite trait: \
            swift run --package-path Examples --traits SQLite forge …
            """
        case .missingDatabase(let path):
            "No database at '\(path)'. Run `forge demo --sqlite \(path)` to create one, or pass another --sqlite."
        }
    }

    private static func missingSecretsText(keys: [String], vaults: [String]) -> String {
        let keyList = keys.map { "'\($0)'" }.joined(separator: ", ")
        let secret = keys.count == 1 ? "secret" : "secrets"
        guard !vaults.isEmpty else {
            return "No vault to reveal \(keyList) from: none of the inspected namespaces is a vault."
        }
        let vaultList = vaults.map { "'\($0)'" }.joined(separator: ", ")
        return "No \(secret) stored for \(keyList) in the vault\(vaults.count == 1 ? "" : "s") \(vaultList)."
    }
}
