public import Foundation
internal import ForgeCore

/// One value as a key-value store holds it: its JSON, as ``DiskKVStore`` writes it to a file.
///
/// A ``KVBackend`` keeps what it is given under a name and gives it back; the typed API encodes and decodes. A
/// store that keeps values in memory may keep the value itself beside its JSON, so that a read with the type that
/// wrote it needs no decoding (``InMemoryKVStore`` does).
public struct KVStoredValue: Sendable {
    /// How the value is held.
    enum Form: Sendable {
        /// JSON, as a store read it.
        case json(Data)
        /// A JSON object whose `value` member is the value (``DiskKVStore``'s files of keys too long for a name).
        case wrapped(Data)
        /// A value with its JSON: `value` as the typed API wrote it, or as a store decoded it from `json`.
        case typed(TypedValue)
        /// What a `UserDefaults` suite holds: a property-list value.
        case propertyList(PropertyListObject)
    }

    let form: Form

    /// When the value expires: from this moment on it reads as missing.
    ///
    /// Nil for a value stored without a lifetime.
    ///
    /// A store that keeps lifetimes (``ExpiringKVStoring``) keeps this date beside the value and gives it back with
    /// it; the typed API decides with the store's clock whether the value is still there.
    public let expiresAt: Date?

    /// A value held as `json`, without a lifetime.
    public init(json: Data) {
        self.form = .json(json)
        self.expiresAt = nil
    }

    /// A value held as `json` that expires at `expiresAt` (nil: never), rounded up to the next whole millisecond since
    /// 1970, the precision every store keeps.
    public init(json: Data, expiresAt: Date?) {
        self.form = .json(json)
        self.expiresAt = expiresAt.map(Self.wholeMillisecond(atOrAfter:))
    }

    init(_ form: Form, expiresAt: Date? = nil) {
        self.form = form
        self.expiresAt = expiresAt
    }

    /// The same value, expiring at `date` (nil: never), rounded up to the next whole millisecond since 1970: the
    /// precision every store keeps, so that a value expires at the same instant in each.
    package func expiring(at date: Date?) -> KVStoredValue {
        KVStoredValue(form, expiresAt: date.map(Self.wholeMillisecond(atOrAfter:)))
    }

    /// Whether the value has expired at `date`: its expiration date is `date` or earlier.
    public func isExpired(at date: Date) -> Bool {
        expiresAt.map { $0 <= date } ?? false
    }

    /// The value's JSON, as ``DiskKVStore`` stores it; empty (so that no type decodes it) for a value a
    /// `UserDefaults` suite holds that JSON cannot express.
    public var json: Data {
        switch form {
        case .json(let data): data
        case .wrapped(let data): Self.member("value", of: data) ?? Data()
        case .typed(let typed): typed.json
        case .propertyList(let object):
            // Through `StoredJSON`, which holds any JSON value as `UserDefaults` gave it.
            (try? DefaultsValueCoding.decode(StoredJSON.self, from: object.value, key: ""))
                .flatMap {
                    try? JSONCodec.encode($0)
                } ?? Data()
        }
    }
}

extension KVStoredValue {
    /// The size of the value as its store holds it, in bytes: its JSON (with the member around it, for a wrapped
    /// value); nil for a `UserDefaults` value, whose size is not known without encoding it.
    package var byteCount: Int? {
        switch form {
        case .json(let data), .wrapped(let data): data.count
        case .typed(let typed): typed.json.count
        case .propertyList: nil
        }
    }

    /// The size of `value`, a read's answer; nil when it found nothing.
    package static func byteCount(_ value: KVStoredValue?) -> Int? {
        value?.byteCount
    }

    /// The size of `values`, an asynchronous read's answer; nil when it found nothing.
    package static func byteCount(_ values: [String: KVStoredValue]) -> Int? {
        values.isEmpty ? nil : values.values.reduce(0) { $0 + ($1.byteCount ?? 0) }
    }
}

extension KVStoredValue {
    /// A value of the type a key holds, with its JSON.
    ///
    /// A class, so that a copy of a stored value costs one retain: an in-memory `get` copies it out of its dictionary
    /// (`kv.memory.get` in Benchmarks, where a struct of these three fields missed the target).
    final class TypedValue: Sendable {
        /// The value; nil when only its JSON is kept.
        let value: (any Sendable)?
        /// Whether ``value`` was decoded from ``json`` (by a store that keeps values in memory), so that a read with
        /// the same type may return it as a read from disk would return it; a value as the caller wrote it is not,
        /// and a store that keeps the stored value as it was given still reads what a disk would.
        let isDecodedFromJSON: Bool
        /// The type of the key that wrote it (not the value's dynamic type: a subclass instance reads as the class the
        /// key declares).
        let type: any (Codable & Sendable).Type
        /// The value's JSON.
        let json: Data

        init(value: (any Sendable)?, type: any (Codable & Sendable).Type, json: Data, isDecodedFromJSON: Bool) {
            self.value = value
            self.isDecodedFromJSON = isDecodedFromJSON
            self.type = type
            self.json = json
        }
    }

    /// A property-list value read from `UserDefaults`; a class, as ``TypedValue`` is, so that a copy is one retain.
    ///
    /// Safe to share: a property-list value is an immutable Foundation value (a string, a number, a date, data, or an
    /// array or dictionary of them) that `UserDefaults` hands out as a copy.
    final class PropertyListObject: @unchecked Sendable {
        let value: Any

        init(value: Any) {
            self.value = value
        }
    }

    /// Encodes `value` as the typed API stores it.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` naming `key` when the value cannot be encoded.
    init<T: Codable & Sendable>(encoding value: T, key: String) throws(KVStoreError) {
        let json = try Self.json(encoding: value, key: key)
        self.form = .typed(TypedValue(value: value, type: T.self, json: json, isDecodedFromJSON: false))
        self.expiresAt = nil
    }

    /// The JSON of `value`, as a value stored for `key` holds it, for a write that keeps no value to read back (a
    /// transaction's).
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` naming `key`.
    static func json<T: Encodable>(encoding value: T, key: String) throws(KVStoreError) -> Data {
        do {
            return try JSONCodec.encode(value)
        } catch {
            throw KVStoreError.encodingFailed(key: key, underlying: String(describing: error))
        }
    }

    /// The value as `T`, decoded from its JSON unless it is held as a `T` already.
    ///
    /// - Throws: ``KVStoreError/decodingFailed(key:underlying:)`` naming `name`.
    func decode<T: Decodable>(_ type: T.Type, name: String) throws(KVStoreError) -> T {
        do {
            switch form {
            case .json(let data):
                return try JSONCodec.decode(T.self, from: data)
            case .wrapped(let data):
                return try JSONCodec.decode(WrappedValue<T>.self, from: data).value
            case .typed(let typed):
                // `value` is unwrapped first: `nil as? T` succeeds, as `.some(nil)`, when `T` is an optional.
                if typed.isDecodedFromJSON, typed.type == T.self, let value = typed.value, let same = value as? T {
                    return same
                }
                return try JSONCodec.decode(T.self, from: typed.json)
            case .propertyList(let object):
                return try DefaultsValueCoding.decode(T.self, from: object.value, key: name)
            }
        } catch let error as KVStoreError {
            throw error
        } catch {
            throw KVStoreError.decodingFailed(key: name, underlying: String(describing: error))
        }
    }

    /// The value as a store that keeps values in memory keeps it: decoded again from its JSON as the key's type (so
    /// that a read returns what a read from disk would), or its JSON alone when it holds a class instance, whose every
    /// read must decode new instances.
    var decodedFromJSON: KVStoredValue {
        guard case .typed(let typed) = form else { return self }
        let decoded = (try? JSONCodec.decode(typed.type, from: typed.json))
            .flatMap {
                Self.holdsOnlyValues($0) ? $0 : nil
            }
        return KVStoredValue(
            .typed(TypedValue(value: decoded, type: typed.type, json: typed.json, isDecodedFromJSON: true)),
            expiresAt: expiresAt
        )
    }

    /// The JSON of the member `name` of the JSON object `data`, with sorted keys and unescaped slashes as the stores
    /// write JSON.
    private static func member(_ name: String, of data: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let member = object[name]
        else { return nil }
        return try? JSONSerialization.data(
            withJSONObject: member,
            options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]
        )
    }

    /// Whether `value` is known to hold no class instance anywhere inside (an optional, a collection, a property), so
    /// that one decoded copy may be handed to every read.
    ///
    /// The types of the values a settings store holds most (numbers, strings, dates, data, URLs) are values; any
    /// other is walked with `Mirror`. A type with a mirror of its own (`CustomReflectable`) may hide what it holds, so
    /// it counts as holding an instance, except the standard collections and `Optional`, whose mirrors list their
    /// elements.
    private static func holdsOnlyValues(_ value: Any) -> Bool {
        if value is String || value is Bool || value is any BinaryInteger || value is any BinaryFloatingPoint
            || value is Date || value is Data || value is URL || value is UUID || value is Decimal
        {
            return true
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .class { return false }
        if value is any CustomReflectable, !(value is any ReflectsItsElements) { return false }
        return mirror.children.allSatisfy { holdsOnlyValues($0.value) }
    }
}

/// A standard type whose `Mirror` lists every element it holds, so that walking it finds any class instance inside.
private protocol ReflectsItsElements {}
extension Array: ReflectsItsElements {}
extension Dictionary: ReflectsItsElements {}
extension Set: ReflectsItsElements {}
extension Optional: ReflectsItsElements {}

/// A JSON object whose `value` member is a stored value, beside other members the store needs (a key's name).
struct WrappedValue<Value: Decodable>: Decodable {
    var value: Value
}

extension KVStoredValue {
    /// ``expiresAt`` as whole milliseconds since 1970, as a store that keeps lifetimes in a number column or a file
    /// header writes it; the typed API stores only whole milliseconds, so no precision is lost.
    public var expiresAtMilliseconds: Int64? {
        expiresAt.map { Self.milliseconds(of: $0, rounding: .toNearestOrAwayFromZero) }
    }

    /// A value held as `json` that expires `expiresAtMilliseconds` after 1970 (nil: never), as a store reads it back.
    public init(json: Data, expiresAtMilliseconds: Int64?) {
        self.init(json: json, expiresAt: expiresAtMilliseconds.map(Self.date(milliseconds:)))
    }

    /// The date `milliseconds` after 1970.
    static func date(milliseconds: Int64) -> Date {
        let clamped = min(max(milliseconds, -latestMilliseconds), latestMilliseconds)
        return Date(timeIntervalSince1970: TimeInterval(clamped) / 1000)
    }

    /// The latest expiration date a store keeps, in milliseconds since 1970: `Date.distantFuture`'s.
    ///
    /// A later one (a lifetime of `Int64.max` seconds, a hostile file's header) is kept as this one, and never traps.
    static let latestMilliseconds = Int64(Date.distantFuture.timeIntervalSince1970 * 1000)

    /// `date` in whole milliseconds since 1970, rounded by `rule`, within the range stores keep; a date that is not a
    /// number is the latest.
    static func milliseconds(of date: Date, rounding rule: FloatingPointRoundingRule) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(rule)
        guard !milliseconds.isNaN else { return latestMilliseconds }
        let latest = Double(latestMilliseconds)
        return Int64(min(max(milliseconds, -latest), latest))
    }

    /// `date` rounded up to the next whole millisecond since 1970, within the range stores keep.
    static func wholeMillisecond(atOrAfter date: Date) -> Date {
        Self.date(milliseconds: milliseconds(of: date, rounding: .up))
    }
}
