import ForgeCore
import Foundation

/// What ``ReferenceKVStore`` handles share: a table of values per namespace, behind one lock, as a folder holds a
/// folder per namespace or a defaults domain a plist per suite.
final class KVBacking: Sendable {
    /// Where a value is stored: the bytes of its stored name, and the type that wrote it when values are kept per type
    /// (``KVMutant/keepsAValuePerType``; empty otherwise).
    struct Slot: Hashable, Sendable {
        let name: [UInt8]
        let type: String
    }

    /// One stored value: the key as it was last spelled, the type that wrote it, its JSON (nil for a removed key's
    /// marker, ``KVMutant/listsRemovedKeys``), and the value `set` was given (``KVMutant/returnsTheWrittenInstance``
    /// only; nil otherwise).
    struct Entry: Sendable {
        var spelling: String
        var type: String
        var data: Data?
        var written: (any Sendable)? = nil
    }

    /// The tables, by namespace.
    private let tables = LockedState<[String: [Slot: Entry]]>([:])

    /// The entry in `slot` of `namespace`.
    func entry(_ slot: Slot, in namespace: String) -> Entry? {
        tables.withLock { $0[namespace]?[slot] }
    }

    /// The entry for `slot` in any namespace: how a store that ignores its namespace when it reads finds a value.
    func entryInAnyNamespace(_ slot: Slot) -> Entry? {
        tables.withLock { tables in tables.values.lazy.compactMap { $0[slot] }.first { $0.data != nil } }
    }

    /// A copy of `namespace`'s table.
    func table(_ namespace: String) -> [Slot: Entry] {
        tables.withLock { $0[namespace] ?? [:] }
    }

    /// Changes `namespace`'s table in one locked step.
    func update<Result>(_ namespace: String, _ body: (inout [Slot: Entry]) -> Result) -> Result {
        tables.withLock { body(&$0[namespace, default: [:]]) }
    }

    /// Replaces `namespace`'s table with `table`.
    func replace(_ namespace: String, with table: [Slot: Entry]) {
        tables.withLock { $0[namespace] = table }
    }

    /// Removes every namespace's table.
    func removeEverything() {
        tables.withLock { $0.removeAll() }
    }
}
