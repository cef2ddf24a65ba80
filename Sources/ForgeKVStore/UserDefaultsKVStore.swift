public import Foundation
internal import ForgeCore

/// A ``KVStoring`` backed by `UserDefaults`, for app settings and values shared through an app group.
///
/// `Bool`, `Int`, `Double`, `Float`, `String`, `Date` and `Data` are stored natively, so the same values
/// are readable with `defaults.bool(forKey:)`, `defaults.integer(forKey:)` and the other typed getters.
/// Every other `Codable` value (URLs, arrays, dictionaries, optionals, structs, enums) is stored as JSON
/// `Data`, encoded like ``DiskKVStore`` encodes it. A read with any type gives what ``DiskKVStore`` gives for the
/// same write (`5` read as `Int?` is 5, `true` read as `Int` is nil, `Float(0.1)` read as `Double` is 0.1).
/// Exceptions to native storage: a `Float` is stored as the `Double` with the same decimal spelling, and a `Data`
/// value whose bytes are themselves JSON as its base64 string (which `defaults.data(forKey:)` does not read).
///
/// ## Linux
/// swift-corelibs-foundation keeps a domain's values in memory, writes them to
/// `$XDG_CONFIG_HOME/{domain}.plist` (or `~/.config`) only on `synchronize()`, never by itself, and reads the file
/// once. So on Linux every `set`, `remove` and `removeAll` writes the property list before it returns, and every
/// `get` and `contains` reads it again: a read sees what another process's store finished writing. Stores in all
/// processes take turns on an advisory file lock (`~/.config/.forge-defaults.lock`), so none reads a half-written
/// file or drops another's change; plain `UserDefaults` code in another process does not take that lock. The XML
/// property list keeps dates in whole seconds, loses the sign of a zero and drops a leading U+FEFF from strings, so a
/// `Date` is stored as its seconds since 2001 (`defaults.double(forKey:)` reads it), `-0.0` and strings that begin
/// with U+FEFF as JSON, and a key that begins with U+FEFF is refused with
/// ``KVStoreError/writeFailed(key:underlying:)``.
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
    /// The lock stores in every process hold around their property lists (Linux).
    private let fileLock: DefaultsFileLock

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
        self.fileLock = DefaultsFileLock()
    }

    /// The defaults key for `key`: its NFC spelling.
    private func name<T>(_ key: KVKey<T>) -> String {
        FileNameEncoding.canonicalForm(of: key.key)
    }

    /// Writes this store's changes to the property list before a call returns (Linux).
    ///
    /// On Linux, swift-corelibs-foundation keeps changes in memory until `synchronize()`, and never writes them by
    /// itself, not even when the process exits; `synchronize()` merges them into the file as it is on disk now.
    /// On Apple platforms `UserDefaults` persists by itself, so this does nothing there.
    private func save() -> Bool {
        #if canImport(Darwin)
        return true
        #else
        return defaults.synchronize()
        #endif
    }

    /// Makes the next read load the property list as it is on disk now (Linux).
    ///
    /// On Linux, swift-corelibs-foundation reads a domain's file once and then answers from memory, so another
    /// process's writes stay unseen. `synchronize()` without pending changes drops that copy, and with pending
    /// changes (made by other code, through `defaults`) writes them and reloads. On Apple platforms
    /// `cfprefsd` shares the values between processes, so this does nothing there.
    private func reload() {
        #if !canImport(Darwin)
        defaults.synchronize()
        #endif
    }

    /// Throws when `key` cannot survive the property list on this platform.
    ///
    /// On Linux, CoreFoundation's XML property list drops a leading U+FEFF from every key it reads, so such a key
    /// would be read back as another key (or lost) after the next write: it is refused rather than lost.
    private func refuseUnsavable<T>(_ key: KVKey<T>) throws {
        #if !canImport(Darwin)
        if name(key).hasPrefix("\u{FEFF}") {
            throw KVStoreError.writeFailed(
                key: key.key,
                underlying: "UserDefaults on Linux cannot keep a key that begins with U+FEFF in its property list"
            )
        }
        #endif
    }

    /// The keys ``removeAll()`` removes: those of ``domainName``'s persistent domain, and on Linux also those of
    /// `defaults`' own domain, reloaded from disk first.
    private func keysToRemove() -> Set<String> {
        #if canImport(Darwin)
        let domain: [String: Any] = defaults.persistentDomain(forName: domainName) ?? [:]
        return Set(domain.keys)
        #else
        // `persistentDomain(forName:)` reads through another `UserDefaults`, whose cached copy of the file can be
        // older than this one's: reload both. `dictionaryRepresentation()` also lists registered defaults, whose
        // removal from the domain changes nothing.
        reload()
        let named = UserDefaults(suiteName: domainName)
        named?.synchronize()
        let keys = (named?.dictionaryRepresentation() ?? [:]).keys
        return Set(keys).union(defaults.dictionaryRepresentation().keys)
        #endif
    }
}

extension UserDefaultsKVStore: KVStoring {
    /// Returns the value stored for `key` read as a `T`, as ``DiskKVStore`` reads it, or nil when there is none or
    /// it is not a `T`.
    ///
    /// On Linux every read loads the property list from disk, so it sees what other processes finished writing.
    public func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        let object = fileLock.withLock {
            reload()
            return defaults.object(forKey: name(key))
        }
        guard let object else { return nil }
        return DefaultsValueCoding.decode(T.self, from: object)
    }

    /// Stores `value` for `key`: natively for the property-list types, as JSON otherwise.
    ///
    /// The value is in the property list on disk when the call returns.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` when the value cannot be encoded, and
    ///   ``KVStoreError/writeFailed(key:underlying:)`` when the property list cannot be written, or on Linux when
    ///   the key begins with U+FEFF (CoreFoundation's property list drops that character from keys).
    public func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        try refuseUnsavable(key)
        let object = try DefaultsValueCoding.object(for: value, key: key.key)
        let saved = fileLock.withLock {
            defaults.set(object, forKey: name(key))
            return save()
        }
        guard saved else {
            throw KVStoreError.writeFailed(key: key.key, underlying: "the defaults' property list could not be written")
        }
    }

    /// Removes the value stored for `key`; the property list on disk no longer holds it when the call returns.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when the property list cannot be written.
    public func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        let saved = fileLock.withLock {
            defaults.removeObject(forKey: name(key))
            return save()
        }
        guard saved else {
            throw KVStoreError.removeFailed(
                key: key.key,
                underlying: "the defaults' property list could not be written"
            )
        }
    }

    /// Returns true when the defaults hold a value for `key`.
    public func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        fileLock.withLock {
            reload()
            return defaults.object(forKey: name(key)) != nil
        }
    }

    /// Removes every key in ``domainName``'s persistent domain, and nothing from other domains.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the property list cannot be written.
    public func removeAll() throws {
        let saved = fileLock.withLock {
            for key in keysToRemove() {
                defaults.removeObject(forKey: key)
            }
            return save()
        }
        guard saved else {
            throw KVStoreError.removeAllFailed(underlying: "the defaults' property list could not be written")
        }
    }
}
