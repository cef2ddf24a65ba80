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
/// swift-corelibs-foundation keeps a domain's values in memory, writes them to `$XDG_CONFIG_HOME/{domain}.plist` (or
/// `~/.config`) only on `synchronize()`, never by itself, not even when the process exits, and reads the file once.
/// Each `synchronize()` costs the whole file: it parses it, merges, writes it in place and reads it back, so its cost
/// grows with the number of keys in the domain. So on Linux this store:
///
/// - **writes behind**: `set` and `remove` change `UserDefaults`' memory at once, so this process reads the new value
///   at once, and return; 10 ms later a background flush writes every change made until then, so a burst of changes
///   costs one rewrite of the property list, not one each. ``flush()`` writes now and waits, and throws when the
///   file cannot be written; a failed flush behind keeps its changes pending and tries again a second later, and
///   ``flush()`` reports it and tries again. A process that exits normally writes what is pending first. A crash (or
///   `_exit`, or a kill) between a change and its flush loses that change: the changes of the last milliseconds, or
///   more while another process holds the lock or the file cannot be written. Values that must survive a crash the
///   moment the call returns belong in ``DiskKVStore``. Between processes, the flush decides: a key two processes
///   set within one flush of each other keeps the value flushed last, which may be the one set first.
/// - **reloads only what changed**: a `get` or `contains` makes one system call, an `fstat` of the property list the
///   store holds open (a `stat` of its path while there is none), and answers from `UserDefaults`' memory when it is
///   still the file at its path with the same size and modification and status-change times. Otherwise (the first
///   read, after the file changed, after a flush of any domain by this process's stores, or after the folder watch
///   told of a write) it takes the lock, six system calls, and has `UserDefaults` read the file again only when it
///   changed. A store's write moves the file's modification time past every one a store has seen, so even a
///   same-size rewrite within one clock tick shows. A read still sees what another process finished writing (what it
///   flushed, or wrote before exiting).
/// - ``removeAll()`` removes the domain's property list, one operation at any size, instead of each key.
///
/// Stores in all processes take turns on an advisory file lock (`~/.config/.forge-defaults.lock`), so none reads a
/// half-written file or drops another's flushed change to another key. Plain `UserDefaults` code in another process
/// does not take that lock, and plain code in this process that calls `synchronize()` itself makes the next read load
/// the file without it. The XML property list keeps dates in whole seconds, loses the sign of a zero and drops a
/// leading U+FEFF from strings, so a `Date` is stored as its seconds since 2001 (`defaults.double(forKey:)` reads it), `-0.0` and strings
/// that begin with U+FEFF as JSON, and a key that begins with U+FEFF is refused with
/// ``KVStoreError/writeFailed(key:underlying:)``.
///
/// From about 1,000 keys, prefer ``DiskKVStore``, one file per key, whose costs do not grow with the number of keys:
/// each rewrite of a property list costs in proportion to the keys it holds, and `UserDefaults` itself rebuilds its
/// view of the whole domain for the first read after each change. `Benchmarks/README.md` in the repository has the
/// figures.
///
/// On Apple platforms `cfprefsd` persists and shares changes by itself, and ``flush()`` does nothing.
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
///
/// ## Changes made elsewhere
/// A ``ReactiveKVStore`` over this store emits, besides the wrapper's own writes:
///
/// - every change a `UserDefaultsKVStore` of the same ``domainName`` makes in this process, as it is made, on every
///   platform: other instances' and the wrapped store's own when it is written directly. `UserDefaultsKVStore()` and
///   a store on the app's domain by name are one domain.
/// - on Linux, what another process writes to the domain's property list: its changes once it flushes them (about
///   10 ms after its write, later while the file is locked or cannot be written; at once on its ``flush()``; when it
///   exits normally), and its ``removeAll()`` when it returns. One inotify watch of the preferences folder per process
///   tells of the file written or removed, as a change of any key; each stream then reads its key, which loads the
///   file again. This process's own flushes are told too, and cost each stream a read. A change plain `UserDefaults`
///   code makes in this process is seen when the file is next written (a store's flush writes it).
/// - on Apple platforms, what other code of this process changes through ``defaults``, which the system tells with
///   `UserDefaults.didChangeNotification`, as a change of any key (the stores' own changes through it are told so
///   too, and cost each stream a read). Other processes' changes (an app group's other apps and extensions) are
///   observed key by key: while a key has a stream, the store is a key-value observer of it on ``defaults``, and of
///   the older names its migrations read, which the system tells of every change to the key from any process, this
///   one's too. KVO reads a name with a `.` as a key path, so a key whose name contains a `.` or begins with `@` is
///   not observed so; for every key, each store posts a Darwin notification named after the domain after its
///   changes, so what another process changes through this library is seen whatever the key's name, and what plain
///   `UserDefaults` code there changes in such a key is not.
public struct UserDefaultsKVStore: @unchecked Sendable {
    // Safe to share: `UserDefaults` is documented as thread-safe, and the store's other mutable state is in its
    // synchronizer, behind a lock.

    /// The defaults this store reads and writes.
    public let defaults: UserDefaults
    /// The persistent domain ``removeAll()`` clears: the suite name, or the app's own domain.
    ///
    /// Stores of one domain tell each other's changes to their ``ReactiveKVStore`` streams.
    public let domainName: String
    /// Writes the store's changes behind and reloads the property list when it changed (Linux).
    let synchronizer: DefaultsSynchronizer

    /// Creates a store on `UserDefaults.standard`, whose ``removeAll()`` clears the app's own domain.
    public init() {
        self.init(defaults: .standard, domainName: nil)
    }

    /// Creates a store on the defaults of the suite `suiteName`, for example an app group.
    ///
    /// `UserDefaults` refuses a few names as suites (the app's own bundle identifier, `NSGlobalDomain`):
    /// those name the app's own defaults, so the store then uses `UserDefaults.standard`, and
    /// ``removeAll()`` clears the app's domain, where its values are. The store does the same with the app's domain
    /// name where there is no bundle identifier (the process name, as on Linux), which `UserDefaults` would take as a
    /// second suite on the same property list, whose changes `UserDefaults.standard` sees only after a flush.
    public init(suiteName: String) {
        if suiteName != Self.appDomainName, let suite = UserDefaults(suiteName: suiteName) {
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
        self.domainName = domainName ?? Self.appDomainName
        self.synchronizer = DefaultsSynchronizer(defaults: defaults, domainName: self.domainName)
    }

    /// The app's own domain: its bundle identifier, or the process name where there is none.
    private static var appDomainName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    /// The defaults key for `key`: its NFC spelling.
    private func name(_ key: String) -> String {
        FileNameEncoding.canonicalForm(of: key)
    }

    /// Writes every value this store set or removed to the property list, and returns once it is there.
    ///
    /// On Linux the store writes changes behind, a few milliseconds after they are made; call this where a value must
    /// be on disk before the program goes on, for example before handing over to another process. On Apple platforms
    /// `cfprefsd` persists changes by itself, and this does nothing.
    ///
    /// ```swift
    /// try store.set(SettingsKeys.onboarded, value: true)
    /// try store.flush()
    /// ```
    ///
    /// - Throws: ``KVStoreError/flushFailed(domain:underlying:)`` when the property list cannot be written, also when
    ///   it is an earlier flush behind that failed and this one's try again fails. The values stay in memory and
    ///   pending, and the next flush tries again.
    public func flush() throws(KVStoreError) {
        try synchronizer.flush()
    }

    /// Throws when `key` cannot survive the property list on this platform.
    ///
    /// On Linux, CoreFoundation's XML property list drops a leading U+FEFF from every key it reads, so such a key
    /// would be read back as another key (or lost) after the next write: it is refused rather than lost.
    private func refuseUnsavable(_ key: String) throws {
        #if !canImport(Darwin)
        if name(key).hasPrefix("\u{FEFF}") {
            throw KVStoreError.writeFailed(
                key: key,
                underlying: "UserDefaults on Linux cannot keep a key that begins with U+FEFF in its property list"
            )
        }
        #endif
    }

}

extension UserDefaultsKVStore: KVStoring, KVBackend {
    /// The object `UserDefaults` holds under `name` (in its NFC spelling), or nil.
    public func storedValue(named name: String) -> KVStoredValue? {
        let object = synchronizer.read { defaults.object(forKey: self.name(name)) }
        return object.map { KVStoredValue(.propertyList(KVStoredValue.PropertyListObject(value: $0))) }
    }

    /// Stores `value` under `name`: natively when the typed API wrote a `Bool`, `Int`, `Double`, `Float`, `String`,
    /// `Date` or `Data`, as JSON `Data` otherwise.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` for a number JSON cannot represent, or
    ///   ``KVStoreError/writeFailed(key:underlying:)`` on Linux for a key that begins with U+FEFF.
    public func store(_ value: KVStoredValue, named name: String) throws {
        try refuseUnsavable(name)
        let object = try Self.propertyListObject(for: value, name: name)
        synchronizer.write { defaults.set(object, forKey: self.name(name)) }
        DefaultsChangeHub.shared.post(name, in: domainName)
    }

    /// Removes the object stored under `name`.
    public func removeValue(named name: String) {
        synchronizer.write { defaults.removeObject(forKey: self.name(name)) }
        DefaultsChangeHub.shared.post(name, in: domainName)
    }

    /// Whether `UserDefaults` holds an object under `name`.
    public func hasValue(named name: String) -> Bool {
        synchronizer.read { defaults.object(forKey: self.name(name)) != nil }
    }

    /// The names in the suite's persistent domain that are in their NFC spelling, as this store writes them.
    ///
    /// - Throws: ``KVStoreError/listFailed(underlying:)`` on Linux when pending changes cannot be flushed first.
    public func storedNames() throws -> [String] {
        #if !canImport(Darwin)
        do {
            try flush()
        } catch {
            throw KVStoreError.listFailed(underlying: error.reason ?? "the property list could not be written")
        }
        #endif
        let names = synchronizer.read { Array((defaults.persistentDomain(forName: domainName) ?? [:]).keys) }
        return names.filter { $0.unicodeScalars.elementsEqual(name($0).unicodeScalars) }
    }

    /// Removes every key in ``domainName``'s persistent domain, and nothing from other domains.
    ///
    /// On Linux it removes the domain's property list, with the values other processes wrote, and has
    /// `UserDefaults` forget the values it holds in memory, also those not yet written: the property list is gone
    /// when the call returns.
    ///
    /// - Throws: ``KVStoreError/removeAllFailed(underlying:)`` when the property list cannot be written or removed.
    public func removeAll() throws {
        // Also after a failure, which may have removed some: a needless notice only costs the observers a read.
        defer { DefaultsChangeHub.shared.post(nil, in: domainName) }
        try synchronizer.removeDomain()
    }
}

extension UserDefaultsKVStore: KVChangeObserving {
    /// Tells of the changes every store of ``domainName`` in this process makes, key by key, and of those that reach
    /// the domain from elsewhere as a change of any key: on Linux, the property list written or removed by another
    /// process (or this one's flush); on Apple platforms, the system's notification of changes made through
    /// ``defaults`` by other code of this process.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        let stores = DefaultsChangeHub.shared.observe(domainName, onChange: onChange)
        let outside = synchronizer.observeOutsideChanges { onChange(nil) }
        return ChangeObservation {
            stores.end()
            outside.end()
        }
    }

    /// Observes `key` on ``defaults`` with key-value observing on Apple platforms; nil elsewhere.
    ///
    /// The system calls a key-value observer for every change to its key: those other processes make to the suite
    /// (an app group's other apps and extensions), and this process's own. A name KVO cannot take as one key
    /// (`isKeyValueObservable(_:)`) is not observed. On Linux the watch of the property list already tells of
    /// other processes' changes.
    public func observeChanges(of key: String, _ onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        guard let observed = keyValueObservedName(of: key) else { return nil }
        #if canImport(ObjectiveC)
        return DefaultsKeyObserver.observe(observed, of: defaults, onChange)
        #else
        _ = observed
        return nil
        #endif
    }

    /// The name a key-value observer of `key` observes in ``defaults``: the name the key is stored under (its NFC
    /// spelling), or nil when KVO cannot take that name as one key.
    func keyValueObservedName(of key: String) -> String? {
        let stored = name(key)
        return Self.isKeyValueObservable(stored) ? stored : nil
    }

    /// Whether key-value observing takes `storedName` as one key of the defaults.
    ///
    /// KVO reads its argument as a key path: a `.` separates keys (`"a.b"` would observe `b` of the value of `a`,
    /// and raise when that value has no `b`), and a leading `@` names a collection operator. Such names, and the
    /// empty one, are not observed.
    static func isKeyValueObservable(_ storedName: String) -> Bool {
        !storedName.isEmpty && !storedName.contains(".") && !storedName.hasPrefix("@")
    }
}
