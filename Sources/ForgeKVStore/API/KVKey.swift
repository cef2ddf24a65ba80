/// A typed name for one value in a key-value store.
///
/// The key pairs a string with the type stored under it, so reads and writes are checked by the compiler.
/// Group keys in an enum and give them dot-separated prefixes:
///
/// ```swift
/// enum TaskKeys {
///     static let onboarding = KVKey<Bool>("taskflow.onboarding")
///     static let projectName = KVKey<String?>("taskflow.projectName")
/// }
/// ```
///
/// A key has no default value: ``KVStoring/get(_:)`` returns nil until a value is stored. To read a value of
/// your choosing instead, give the key one with ``withDefault(_:)`` (or make a ``KVKeyWithDefault``), and `get`
/// returns a `Value`, never nil:
///
/// ```swift
/// static let onboarding = KVKey<Bool>("taskflow.onboarding").withDefault(false)
/// ```
///
/// When the stored type changes between versions of an app, name the older types and key names with the key,
/// and reads migrate what an older version stored (see ``KVMigration``):
///
/// ```swift
/// static let profile = KVKey<Profile>("profile", migrations: .from(ProfileV1.self) { Profile($0) })
/// ```
public struct KVKey<Value: Codable & Sendable>: Sendable {
    /// The string the value is stored under.
    public let key: String

    /// How values that older versions of the app stored are read as a `Value`, tried in order when the key holds
    /// nothing, or something that does not decode as a `Value`.
    public let migrations: [KVMigration<Value>]

    /// The key names a value of this key may be stored under: `key`, then the older names its migrations read.
    ///
    /// For stores: the names `contains` and `remove` go over, and those a stream watches.
    public let storedNames: [String]

    /// Creates a key that stores a `Value` under `key`.
    ///
    /// Any string is a valid key: disk stores turn it into a safe file name.
    public init(_ key: String) {
        self.init(key, migrations: [])
    }

    /// Creates a key that stores a `Value` under `key`, and reads what older versions stored through
    /// `migrations`, tried in order.
    public init(_ key: String, migrations: KVMigration<Value>...) {
        self.init(key, migrations: migrations)
    }

    /// The key without its migrations: what a store reads and writes under `key` alone.
    public var withoutMigrations: KVKey<Value> {
        KVKey(key)
    }

    /// Creates a key that stores a `Value` under `key`, and reads what older versions stored through `migrations`.
    init(_ key: String, migrations: [KVMigration<Value>]) {
        self.key = key
        self.migrations = migrations
        var names = [key]
        // A closure, not `\.oldKey`: a key path of a generic type is made again at run time for every key.
        for name in migrations.compactMap({ $0.oldKey }) where !names.contains(name) { names.append(name) }
        self.storedNames = names
        self.hasMigrations = !migrations.isEmpty
    }

    /// Whether the key has migrations; kept beside them so that a read of a key without any checks a `Bool`, not a
    /// generic array (`kv.memory.get` in Benchmarks).
    let hasMigrations: Bool

    /// Whether `other` reads what this key reads, as this key reads it: the same name, and the same migrations
    /// (copies of the same ones, in the same order).
    func readsAlike(_ other: KVKey<Value>) -> Bool {
        key == other.key && migrations.count == other.migrations.count
            && zip(migrations, other.migrations).allSatisfy { $0.identity === $1.identity }
    }

}

extension KVKey: Equatable, Hashable {
    /// Two keys are equal when they store the same type under the same string, whatever their migrations.
    public static func == (lhs: KVKey, rhs: KVKey) -> Bool {
        lhs.key == rhs.key
    }

    /// Hashes the key's string.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}

extension KVKey: CustomStringConvertible {
    /// The key's string and value type, for example `KVKey<Int>("taskflow.taskCount")`.
    public var description: String {
        "KVKey<\(Value.self)>(\"\(key)\")"
    }
}
