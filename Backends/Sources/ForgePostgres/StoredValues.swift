internal import ForgeKVStore
internal import Foundation

/// The JSON texts one read fetched for a key's stored names, as a ``KVStoring`` that the migrations of
/// `KVKey.resolvingMigrations(in:plainRead:)` read from.
///
/// A read fetches every name a key may be stored under in one statement, then resolves its migrations here: the
/// same rules as the other stores, over one consistent snapshot of the table. It only reads; its writes throw.
struct StoredValues: Sendable {
    /// The stored JSON text of each name that holds a value, by stored name (`StoredText.stored(_:)`).
    let texts: [String: String]

    /// Decodes the value stored under `key`'s own name as `T`; nil when nothing is stored there.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` when what is stored does not decode as `T`.
    func decode<T: Codable & Sendable>(_ key: KVKey<T>) throws -> T? {
        guard let text = texts[StoredText.stored(key.key)] else { return nil }
        do {
            return try JSONValueCoding.decode(T.self, from: text)
        } catch {
            throw KVStoreError.decodingFailed(key: key.key, underlying: String(describing: error))
        }
    }
}

extension StoredValues: KVStoring {
    /// The value stored for `key` or migrated from an older name, or nil.
    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        (try? value(for: key)) ?? nil
    }

    /// The value stored for `key` or migrated from an older name, through the library's migration rules.
    func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        try key.resolvingMigrations(in: self) { plain in try decode(plain) }
    }

    /// Throws: a snapshot is never written.
    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        throw KVStoreError.writeFailed(key: key.key, underlying: "a read's snapshot cannot be written")
    }

    /// Throws: a snapshot is never written.
    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        throw KVStoreError.removeFailed(key: key.key, underlying: "a read's snapshot cannot be written")
    }

    /// True when the snapshot holds a value under one of `key`'s stored names.
    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        key.storedNames.contains { texts[StoredText.stored($0)] != nil }
    }

    /// Throws: a snapshot is never written.
    func removeAll() throws {
        throw KVStoreError.removeAllFailed(underlying: "a read's snapshot cannot be written")
    }

    /// The names the snapshot holds, sorted.
    func keys() throws -> [String] {
        texts.keys.sorted()
    }
}

/// The JSON encoding of the library's stores, so that a value written here reads the same everywhere: keys sorted,
/// slashes unescaped, dates as Foundation's default (seconds since 2001), as ForgeCore's `JSONCodec` sets it.
enum JSONValueCoding {
    /// Encodes `value` as the JSON text the library's stores write.
    static func encode<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes a `Value` from JSON text.
    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
