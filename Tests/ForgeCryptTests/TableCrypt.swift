import ForgeCrypt
import Foundation

/// A secret store as a user writes one: ``CryptBackend``'s requirements over a shared table, and nothing else.
///
/// Namespaces share the table as they would share a database table. Typed keys, the coding of `Data`, `String` and
/// JSON values, the typed errors of a value that does not encode or decode, `contains` and sorted, canonical `keys()`
/// come from the library; `TableCryptTests` holds it to the whole conformance suite, sync and async.
///
/// It keeps secrets in the clear, as ``InMemoryCrypt`` does: a store for real secrets seals them below the contract,
/// as the vault does with `SecretSealer`.
struct TableCrypt: CryptStoring, CryptBackend {
    /// The rows of every namespace: namespace, then name, then the secret's bytes.
    ///
    /// Names are dictionary keys, which Swift compares canonically, so the NFC and NFD spellings of a key are one row.
    final class Table: @unchecked Sendable {
        // Safe to share: `rows` is read and written only under `lock`.
        private let lock = NSLock()
        private var rows: [String: [String: Data]] = [:]

        func withRows<Result>(_ body: (inout [String: [String: Data]]) -> Result) -> Result {
            lock.withLock { body(&rows) }
        }
    }

    let table: Table
    let namespace: String

    func storedSecret(named name: String) -> Data? {
        table.withRows { $0[namespace]?[name] }
    }

    func store(_ secret: Data, named name: String) {
        table.withRows { $0[namespace, default: [:]][name] = secret }
    }

    func removeSecret(named name: String) {
        table.withRows { _ = $0[namespace]?.removeValue(forKey: name) }
    }

    func storedNames() -> [String] {
        table.withRows { Array(($0[namespace] ?? [:]).keys) }
    }

    func removeAll() {
        table.withRows { $0[namespace] = nil }
    }
}

extension TableCrypt: AsyncCryptStoring {}
