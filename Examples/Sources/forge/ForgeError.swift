import Foundation

/// A failure `forge` explains to its user; the command exits with a non-zero status.
enum ForgeError: Error, Equatable, CustomStringConvertible {
    case missingRoot(String)
    case unknownNamespace(String, root: String, known: [String])
    case wrongKind(namespace: String, kind: StoreKind, expected: StoreKind)
    case missingKey(String, namespace: String)
    case corruptValue(key: String, namespace: String)
    case notJSON(String)
    case missingKeyFile(String)
    case problemsFound(Int)

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
        case .corruptValue(let key, let namespace):
            "The file of key '\(key)' in namespace '\(namespace)' is corrupt: it does not hold JSON."
        case .notJSON(let text):
            "'\(text)' is not JSON. Quote strings ('\"text\"'), or pass --string to store the text as a string."
        case .missingKeyFile(let path):
            "No master key file at '\(path)'. Pass --key-file with the vault's key file."
        case .problemsFound(let count):
            "\(count) problem\(count == 1 ? "" : "s") found; see above."
        }
    }
}
