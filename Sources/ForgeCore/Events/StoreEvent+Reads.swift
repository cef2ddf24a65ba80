extension StoreEvent {
    /// A value a key-value store's read found that does not decode as the type the key asks for, even through the
    /// key's migrations.
    ///
    /// `KVStoring`'s `get` reads such a value as nil (or as the key's default); `value(for:)` throws it as
    /// `KVStoreError.decodingFailed`. The event's ``StoreEvent/target`` is the key read.
    public struct DecodingFailure: Sendable, Hashable, CustomStringConvertible {
        /// The type the read asked for, as Swift spells it (`Profile`, `Optional<Int>`).
        public let expectedType: String
        /// The name whose value did not decode: the key, or an older name one of its migrations read; as the store's
        /// ``StoreEvent/KeyNames`` show it (empty when they are omitted).
        public let storedName: String
        /// The decoder's description of the problem (or the migration's, when its conversion refused the older value).
        public let underlying: String
        /// Whether the read answered nil for it (`get`), rather than throwing it (`value(for:)`).
        public let readAsNil: Bool

        /// A sentence naming the name, the type and the problem, for a log.
        public var description: String {
            let stored = storedName.isEmpty ? "A stored value" : "The value stored under '\(storedName)'"
            return "\(stored) did not decode as \(expectedType): \(underlying)"
        }

        /// A value under `storedName` that did not decode as `expectedType`, for `underlying`.
        package init(expectedType: String, storedName: String, underlying: String, readAsNil: Bool) {
            self.expectedType = expectedType
            self.storedName = storedName
            self.underlying = underlying
            self.readAsNil = readAsNil
        }
    }

    /// A key-value store's read that a migration of the key served.
    ///
    /// The value returned is an older version's, converted. The event's ``StoreEvent/target`` is the key read.
    ///
    /// A read never writes the migrated value back, so the same value is migrated at each read until the key is set.
    public struct Migration: Sendable, Hashable, CustomStringConvertible {
        /// The name the older value was read from: the key itself (its value did not decode as the current type), or
        /// an older name; as the store's ``StoreEvent/KeyNames`` show it (empty when they are omitted).
        public let storedName: String
        /// The type the older version stored, as Swift spells it.
        public let olderType: String
        /// The type the key holds now.
        public let currentType: String

        /// A sentence naming the name and the two types, for a log.
        public var description: String {
            let stored = storedName.isEmpty ? "A stored value" : "The value stored under '\(storedName)'"
            return "\(stored) was read as \(olderType) and migrated to \(currentType)"
        }

        /// A read of `storedName` as `olderType`, converted to `currentType`.
        package init(storedName: String, olderType: String, currentType: String) {
            self.storedName = storedName
            self.olderType = olderType
            self.currentType = currentType
        }
    }
}
