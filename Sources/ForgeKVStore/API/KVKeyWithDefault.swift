/// A typed name for one value in a key-value store, with the value a read returns when nothing is stored.
///
/// Give a key a default when the app has a value to use until the user sets one, so that reads need no `?? false`:
///
/// ```swift
/// enum TaskKeys {
///     static let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
///     static let taskCount = KVKey<Int>("taskflow.taskCount").withDefault(0)
/// }
///
/// let done = settings.get(TaskKeys.onboarding)   // Bool: false until a value is stored
/// ```
///
/// Every ``KVStoring`` and ``AsyncKVStoring`` store reads and writes it with `get`, `set`, `remove`, `contains` and
/// `value(for:)` (written once by the library, above the methods that take a ``KVKey``), streams give the default for
/// it (`stream(_:)` of ``AsyncKVStreaming``), and a ``KVBinding`` of it has a `value` that is never nil:
///
/// - `get` returns the stored value, or the default when nothing is stored or what is stored does not decode as a
///   `Value`, even through the key's migrations. The store still reports a value that does not decode to the
///   handler of a ``ReportingKVStore``, as for a key without a default. A value the store cannot read (a folder where
///   its file should be) reads as the default too, as it reads as nil for a ``KVKey``: a read-modify-write that must
///   not write over a value it could not read uses `value(for:)`, which throws.
/// - `contains` and `value(for:)` tell a stored value from the default: `contains` is true only when a value is
///   stored (the default's own value included), and `value(for:)` returns nil when nothing is stored and throws
///   ``KVStoreError/decodingFailed(key:underlying:)`` when what is stored does not decode.
/// - The default is never written: `remove` makes `get` return it again, and a store holds only what was `set`.
///
/// A key with a default names the same stored value as the ``KVKey`` it was made from (``withoutDefault``): the
/// two read and write one value, and the default is only what the reads of this key answer when there is none.
public struct KVKeyWithDefault<Value: Codable & Sendable>: Sendable {
    /// The key without its default: the name and migrations the value is stored and read under.
    public let withoutDefault: KVKey<Value>

    /// The value reads return when nothing is stored, or when what is stored does not decode as a `Value`.
    public let defaultValue: Value

    /// The string the value is stored under.
    public var key: String { withoutDefault.key }

    /// Creates a key that stores a `Value` under `key`, and reads as `defaultValue` while none is stored.
    ///
    /// ```swift
    /// static let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The string the value is stored under; any string is a valid key.
    ///   - defaultValue: What reads return when nothing is stored or it does not decode.
    public init(_ key: String, default defaultValue: Value) {
        self.init(KVKey(key), default: defaultValue)
    }

    /// Creates a key that stores a `Value` under `key`, reads what older versions stored through `migrations`
    /// (tried in order, see ``KVMigration``), and reads as `defaultValue` when neither finds a value.
    ///
    /// ```swift
    /// static let reminder = KVKeyWithDefault(
    ///     "taskflow.reminder", default: Reminder.standard, migrations: .from(ReminderV1.self) { Reminder($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - key: The string the value is stored under.
    ///   - defaultValue: What reads return when nothing is stored, or what is stored neither decodes nor migrates.
    ///   - migrations: How values that older versions of the app stored are read as a `Value`.
    public init(_ key: String, default defaultValue: Value, migrations: KVMigration<Value>...) {
        self.init(KVKey(key, migrations: migrations), default: defaultValue)
    }

    /// Creates a key with a default from a key without one, as ``KVKey/withDefault(_:)`` does.
    ///
    /// - Parameters:
    ///   - key: The key: its name and migrations.
    ///   - defaultValue: What reads return when nothing is stored or it does not decode.
    public init(_ key: KVKey<Value>, default defaultValue: Value) {
        self.withoutDefault = key
        self.defaultValue = defaultValue
    }
}

extension KVKey {
    /// This key, with `defaultValue` as the value reads return when nothing is stored (see ``KVKeyWithDefault``).
    ///
    /// ```swift
    /// static let taskCount = KVKey<Int>("taskflow.taskCount").withDefault(0)
    /// ```
    ///
    /// - Parameter defaultValue: What reads return when nothing is stored or it does not decode.
    /// - Returns: The key with the same name and migrations, and the default.
    public func withDefault(_ defaultValue: Value) -> KVKeyWithDefault<Value> {
        KVKeyWithDefault(self, default: defaultValue)
    }
}

extension KVKeyWithDefault: CustomStringConvertible {
    /// The key's string, value type and default, for example
    /// `KVKeyWithDefault<Bool>("taskflow.onboarding", default: false)`.
    public var description: String {
        "KVKeyWithDefault<\(Value.self)>(\"\(key)\", default: \(String(reflecting: defaultValue)))"
    }
}
