@testable import ForgeCore
@testable import ForgeCrypt
@testable import ForgeFileStore
@testable import ForgeKVStore
import Foundation

/// The parsers of bytes a store reads back from disk, each fuzzed on its own.
enum FuzzTarget: String, CaseIterable {
    /// A `DiskKVStore` file: the `#expires` header, then a value's JSON (or a long key's envelope).
    case kvFile = "kv-file"
    /// The vault's header (`vault.json`), opened with a master key.
    case vaultHeader = "vault-header"
    /// A sealed vault item, opened and listed.
    case vaultItem = "vault-item"
    /// A file or folder name found in a store's folder, and a path given to a file store.
    case names
    /// A `UserDefaults` property list on Linux, and the values read from it.
    case defaultsPropertyList = "defaults-plist"
    /// A row of a `SQLiteKVStore` table that another program wrote.
    case sqliteRow = "sqlite-row"

    /// Runs the target on `data`.
    func run(_ data: Data) {
        switch self {
        case .kvFile: KeyValueFile.run(data)
        case .vaultHeader: VaultFuzzing.header(data)
        case .vaultItem: VaultFuzzing.item(data)
        case .names: NameFuzzing.run(data)
        case .defaultsPropertyList: DefaultsFuzzing.run(data)
        case .sqliteRow: SQLiteRowFuzzing.run(data)
        }
    }
}

/// A value of several kinds, as an app stores one.
struct Profile: Codable, Sendable, Equatable {
    var name: String
    var age: Int
    var tags: [String]
    var joined: Date?
    var scores: [String: Double]
}

/// Ends the run as a finding: `error` is not the typed error the parser promises.
func untyped(_ error: any Error, _ target: FuzzTarget) -> Never {
    fatalError("\(target.rawValue): not a typed error: \(type(of: error)): \(error)")
}
