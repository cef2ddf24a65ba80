import ForgeCore
import ForgeCrypt
import Foundation

/// A secret store that follows `CryptStoring`'s documented rules and nothing more: small, in memory, each call
/// one locked step; with a ``CryptMutant``, it breaks one rule the way real stores do.
final class CryptReferenceStore: Sendable {
    /// The storage this handle shares with other handles and neighbours.
    let backing: CryptBacking
    /// The namespace this store holds in ``backing``.
    let namespace: String
    /// The way this store is broken, or nil for the correct store.
    let mutant: CryptMutant?
    /// What this handle read, kept and used only by the `cachesReads` mutant.
    private let cache = LockedState<[String: Data]>([:])

    init(backing: CryptBacking = CryptBacking(), namespace: String = "main", mutant: CryptMutant? = nil) {
        self.backing = backing
        self.namespace = namespace
        self.mutant = mutant
    }

    /// The name a key is stored under: its NFC form, so canonically equivalent spellings are one key.
    private func name(_ key: String) -> String {
        let name = key.precomposedStringWithCanonicalMapping
        switch mutant {
        case .replacesSlashes: return name.replacingOccurrences(of: "/", with: "_")
        case .dropsNonASCII: return String(String.UnicodeScalarView(name.unicodeScalars.filter(\.isASCII)))
        case .dropsControlCharacters:
            return String(
                String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control })
            )
        case .foldsCase: return name.lowercased()
        case .trimsSpaces: return name.trimmingCharacters(in: .whitespaces)
        case .foldsCompatibilityForms: return key.precomposedStringWithCompatibilityMapping
        case .truncatesLongNames: return String(name.prefix(255))
        case .listsAsGiven: return key
        default: return name
        }
    }

    /// Runs `body` on this store's items, under the backing's lock.
    private func withItems<Result>(_ body: (inout [String: Data]) throws -> Result) rethrows -> Result {
        try backing.namespaces.withLock { try body(&$0[namespace, default: [:]]) }
    }

    /// The bytes that stand for `value`: `Data` as it is, `String` as its UTF-8, anything else as JSON.
    private func encode<Value: Codable & Sendable>(_ value: Value, key: String) throws -> Data {
        if Value.self == Data.self, let data = value as? Data { return data }
        if Value.self == String.self, let text = value as? String { return Data(text.utf8) }
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw CryptStoreError.encodingFailed(key: key, underlying: "\(error)")
        }
    }

    /// The value that `data` stands for, read as `Value`.
    private func decode<Value: Codable & Sendable>(_ data: Data, as: Value.Type, key: String) throws -> Value {
        if Value.self == Data.self, let value = data as? Value { return value }
        if Value.self == String.self {
            let text = String(decoding: data, as: UTF8.self)
            guard text.utf8.elementsEqual(data), let value = text as? Value else {
                throw CryptStoreError.decodingFailed(key: key, underlying: "not UTF-8")
            }
            return value
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CryptStoreError.decodingFailed(key: key, underlying: "\(error)")
        }
    }
}

extension CryptReferenceStore: CryptStoring {
    func get<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Value? {
        let name = name(key.key)
        if mutant == .cachesReads, let cached = cache.withLock({ $0[name] }) {
            return try decode(cached, as: Value.self, key: key.key)
        }
        var data = withItems { $0[name] }
        if mutant == .readsNeighbours, data == nil {
            data = backing.namespaces.withLock { $0.values.lazy.compactMap { $0[name] }.first }
        }
        guard let data else { return nil }
        if mutant == .cachesReads { cache.withLock { $0[name] = data } }
        if mutant == .wrongTypeReadsAsNil { return try? decode(data, as: Value.self, key: key.key) }
        return try decode(data, as: Value.self, key: key.key)
    }

    func set<Value: Codable & Sendable>(_ value: Value, for key: CryptKey<Value>) throws {
        let name = name(key.key)
        let data: Data
        if mutant == .swallowsEncodingErrors {
            guard let encoded = try? encode(value, key: key.key) else { return }
            data = encoded
        } else {
            data = try encode(value, key: key.key)
        }
        backing.written.withLock { _ = $0[namespace, default: []].insert(name) }
        if mutant == .cachesReads { cache.withLock { $0[name] = data } }
        switch mutant {
        case .losesConcurrentSets:
            var copy = withItems { $0 }
            copy[name] = data
            backing.betweenSteps()
            withItems { $0 = copy }
        case .removesBeforeWriting:
            withItems { $0[name] = nil }
            backing.betweenSteps()
            withItems { $0[name] = data }
        case .writesInTwoParts:
            withItems { $0[name] = data.prefix(data.count / 2) }
            backing.betweenSteps()
            withItems { $0[name] = data }
        default:
            withItems { $0[name] = data }
        }
    }

    func delete<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws {
        let name = name(key.key)
        if mutant == .cachesReads { cache.withLock { $0[name] = nil } }
        let removed = withItems { $0.removeValue(forKey: name) }
        if mutant == .deleteOfMissingThrows, removed == nil {
            throw CryptStoreError.removeFailed(key: key.key, underlying: .notFound)
        }
        if mutant == .deleteReachesNeighbours {
            backing.namespaces.withLock { for namespace in $0.keys { $0[namespace]?[name] = nil } }
        }
    }

    func contains<Value: Codable & Sendable>(_ key: CryptKey<Value>) throws -> Bool {
        let name = name(key.key)
        if mutant == .containsLies { return withItems { !$0.isEmpty } }
        return withItems { $0[name] != nil }
    }

    func deleteAll() throws {
        if mutant == .cachesReads { cache.withLock { $0.removeAll() } }
        backing.written.withLock { $0[namespace] = [] }
        switch mutant {
        case .deleteAllClearsNeighbours: backing.namespaces.withLock { $0.removeAll() }
        case .deleteAllLeavesHiddenNames: withItems { $0 = $0.filter { $0.key.hasPrefix(".") } }
        case .deleteAllRemovesOnlyPlainNames: withItems { $0 = $0.filter { !PlainName.isPlain($0.key) } }
        default: withItems { $0.removeAll() }
        }
    }

    func keys() throws -> [String] {
        let names = withItems { Array($0.keys) }
        switch mutant {
        case .listsUnsorted: return names
        case .listsDeletedKeys: return backing.written.withLock { $0[namespace, default: []] }.sorted()
        case .listsOnlyPlainNames:
            return
                names.filter { name in
                    !name.isEmpty && !name.contains("/")
                        && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
                }
                .sorted()
        case .listsNoHiddenNames: return names.filter { !$0.hasPrefix(".") }.sorted()
        default: return names.sorted()
        }
    }
}
