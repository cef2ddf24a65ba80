public import Foundation
internal import ForgeCore

/// A ``KVStoring`` backed by `UserDefaults`, for app settings and values shared through an app group.
///
/// `Bool`, `Int`, `Double`, `Float`, `String`, `Date` and `Data` are stored natively, so the same values
/// are readable with `defaults.bool(forKey:)`, `defaults.integer(forKey:)` and the other typed getters.
/// Every other `Codable` value (URLs, arrays, dictionaries, optionals, structs, enums) is stored as JSON
/// `Data`, encoded like ``DiskKVStore`` encodes it.
///
/// ```swift
/// let store = UserDefaultsKVStore()
/// let shared = UserDefaultsKVStore(suiteName: "group.com.taskflow.shared")
/// ```
///
/// Keys are used as given, except that non-ASCII keys are stored in their Unicode NFC spelling, so that
/// canonically equivalent keys (which Swift considers equal) are one key here as in the other stores.
///
/// Like the other stores, it refuses values JSON cannot represent (`Double.nan`, infinities) with
/// ``KVStoreError/encodingFailed(key:underlying:)``, also when they would be stored natively.
public struct UserDefaultsKVStore: @unchecked Sendable {
    // Safe to share: `UserDefaults` is documented as thread-safe, and the store holds no other mutable state.

    /// The defaults this store reads and writes.
    public let defaults: UserDefaults
    /// The persistent domain ``removeAll()`` clears: the suite name, or the app's own domain.
    public let domainName: String

    /// Creates a store on `UserDefaults.standard`, whose ``removeAll()`` clears the app's own domain.
    public init() {
        self.init(defaults: .standard, domainName: nil)
    }

    /// Creates a store on the defaults of the suite `suiteName`, for example an app group.
    ///
    /// `UserDefaults` refuses a few names as suites (the app's own bundle identifier, `NSGlobalDomain`):
    /// those name the app's own defaults, so the store then uses `UserDefaults.standard`, and
    /// ``removeAll()`` clears the app's domain, where its values are.
    public init(suiteName: String) {
        if let suite = UserDefaults(suiteName: suiteName) {
            self.init(defaults: suite, domainName: suiteName)
        } else {
            self.init()
        }
    }

    /// Creates a store on an existing `UserDefaults` instance.
    ///
    /// - Parameters:
    ///   - defaults: The defaults to read and write.
    ///   - domainName: The persistent domain ``removeAll()`` clears. Pass the suite name when `defaults`
    ///     was created with one; nil means the app's own domain (its bundle identifier, or the process name
    ///     where there is none).
    public init(defaults: UserDefaults, domainName: String? = nil) {
        self.defaults = defaults
        self.domainName = domainName ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The defaults key for `key`: its NFC spelling.
    private func name<T>(_ key: KVKey<T>) -> String {
        FileNameEncoding.canonicalForm(of: key.key)
    }

    /// `number` as a `T`, when `T` is a numeric type that holds it exactly.
    ///
    /// Some platforms return large
    /// integers from `UserDefaults` as `NSNumber`s that do not cast to `Int` directly.
    private static func exactNumber<T>(_ number: NSNumber) -> T? {
        switch T.self {
        case is Int.Type: Int(exactly: number) as? T
        case is Double.Type: Double(exactly: number) as? T
        case is Float.Type: Float(exactly: number) as? T
        default: nil
        }
    }

    /// Whether values of type `T` are stored as native property-list values rather than JSON.
    static func storesNatively<T>(_ type: T.Type) -> Bool {
        T.self == Bool.self || T.self == Int.self || T.self == Double.self || T.self == Float.self
            || T.self == String.self || T.self == Date.self || T.self == Data.self
    }
}

extension UserDefaultsKVStore: KVStoring {
    /// Returns the value stored for `key`, or nil when there is none or it is not a `T`.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        if Self.storesNatively(T.self) {
            let object = defaults.object(forKey: name(key))
            if let value = object as? T { return value }
            return (object as? NSNumber).flatMap(Self.exactNumber)
        }
        guard let data = defaults.data(forKey: name(key)) else { return nil }
        return try? JSONCodec.decode(T.self, from: data)
    }

    /// Stores `value` for `key`: natively for the property-list types, as JSON otherwise.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded.
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        guard Self.storesNatively(T.self) else {
            let data: Data
            do {
                data = try JSONCodec.encode(value)
            } catch {
                throw KVStoreError.encodingFailed(key: key.key, underlying: String(describing: error))
            }
            defaults.set(data, forKey: name(key))
            return
        }
        // JSON, and so every other store, cannot hold these: refuse them here too.
        let nonFinite = (value as? Double).map { !$0.isFinite } ?? (value as? Float).map { !$0.isFinite } ?? false
        if nonFinite {
            throw KVStoreError.encodingFailed(key: key.key, underlying: "\(value) cannot be represented in JSON")
        }
        defaults.set(value, forKey: name(key))
    }

    /// Removes the value stored for `key`.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        defaults.removeObject(forKey: name(key))
    }

    /// Returns true when the defaults hold a value for `key`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        defaults.object(forKey: name(key)) != nil
    }

    /// Removes every key in ``domainName``'s persistent domain, and nothing from other domains.
    public func removeAll() throws {
        for key in defaults.persistentDomain(forName: domainName)?.keys ?? [:].keys {
            defaults.removeObject(forKey: key)
        }
    }
}
