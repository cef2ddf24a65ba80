/// How a value an older version of an app stored is read as the type a key holds now.
///
/// Name the migrations with the key, newest first; a read tries them in order:
///
/// ```swift
/// enum TaskKeys {
///     // 1.0 stored a `[String]` of titles under "taskflow.tasks"; 2.0 stores `[TaskItem]` under the same name.
///     static let tasks = KVKey<[TaskItem]>(
///         "taskflow.tasks", migrations: .from([String].self) { titles in titles.map { TaskItem(title: $0) } })
///     // 1.0 called the key "theme".
///     static let appearance = KVKey<Appearance>("taskflow.appearance", migrations: .renamed(from: "theme"))
/// }
/// ```
///
/// - A read (``KVStoring/get(_:)``, ``KVStoring/value(for:)``) returns the value stored under the key when it
///   decodes as the key's type. When it does not, the migrations of the same name decode it as their older type
///   and convert it; when the key holds nothing, the migrations of older names read those names.
/// - A read never writes: the migrated value is not stored back, and the older value stays where it is, so an
///   older version of the app that shares the store (an extension not yet updated) still reads it. The first
///   `set` stores the current type under the key, which reads find first from then on.
/// - `remove` removes the value under the key and under every older name its migrations read, so a removed
///   value is never migrated back; `contains` is true when any of them holds a value. So name as older only
///   names the app no longer uses as keys of their own: a migration from a name another part of the app still
///   reads and writes makes `remove` delete that key's value too.
/// - A value that neither decodes nor migrates throws ``KVStoreError/decodingFailed(key:underlying:)`` from
///   ``KVStoring/value(for:)``, and reads as nil from ``KVStoring/get(_:)``, which reports it.
public struct KVMigration<Value: Codable & Sendable>: Sendable {
    /// The older key name this migration reads, or nil when it reads the key's own name.
    public let oldKey: String?

    /// The type the older version stored, as Swift spells it, for the events of a read this migration serves.
    let olderType: String

    /// Reads the older value under `name` from `source` and converts it; nil when nothing is stored there.
    private let readOlder: @Sendable (_ source: any KVValueSource, _ name: String) throws -> Value?

    /// Shared by the copies of this migration and by nothing else, so that two keys are known to read alike (see
    /// `KVKey.readsAlike(_:)`) though a conversion cannot be compared.
    let identity = Identity()

    /// The identity of one migration as it was made.
    final class Identity: Sendable {}

    /// Reads a value stored as an `Old` and converts it with `convert`.
    ///
    /// - Parameters:
    ///   - type: The type an older version stored.
    ///   - oldKey: The key name it stored it under, or nil (the default) for the key's own name.
    ///   - convert: Turns the older value into the current one; an error it throws is reported as
    ///     ``KVStoreError/decodingFailed(key:underlying:)``.
    /// - Returns: The migration, to name in the key's `migrations`.
    public static func from<Old: Codable & Sendable>(
        _ type: Old.Type,
        key oldKey: String? = nil,
        _ convert: @escaping @Sendable (Old) throws -> Value
    ) -> KVMigration {
        KVMigration(oldKey: oldKey, olderType: "\(Old.self)") { source, name in
            guard let old = try source.plainValue(of: Old.self, named: name) else { return nil }
            do {
                return try convert(old)
            } catch {
                throw ConversionFailure(
                    error: .decodingFailed(key: name, underlying: "migration from \(Old.self): \(error)")
                )
            }
        }
    }

    /// Reads a value of the same type stored under the older key name `oldKey`.
    public static func renamed(from oldKey: String) -> KVMigration {
        from(Value.self, key: oldKey) { $0 }
    }

    /// The migrated value found in `source` for a key named `key`, or nil when nothing is stored where this
    /// migration looks.
    ///
    /// - Throws: ``KVStoreError``, or a ``ConversionFailure`` when the older value was read but `convert` failed.
    func read(from source: any KVValueSource, key: String) throws -> Value? {
        try readOlder(source, oldKey ?? key)
    }
}

/// An older value that was read but that its migration's conversion refused: the error a read throws when no
/// migration succeeds, since it says more than the current type's failure to decode the older value.
struct ConversionFailure: Error {
    /// The ``KVStoreError/decodingFailed(key:underlying:)`` naming the key read and the conversion's error.
    let error: KVStoreError
}
