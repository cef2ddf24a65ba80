import ForgeStorage
import TaskFlow

/// A key TaskFlow declares, with the type the app reads it as, so `forge` can say when a stored value does not
/// decode as that type instead of showing it as if the app could read it.
///
/// The JSON of a key-value store does not say what type it was written as; the app's keys do. `forge` knows
/// TaskFlow's (``taskFlow``): add a key here when `TaskKeys` gains one.
struct TypedKey: Sendable {
    /// The key's string.
    let name: String
    /// The type TaskFlow reads the key as, as Swift spells it (`Reminder`).
    let typeName: String
    /// Reads the key from a store, as TaskFlow reads it.
    private let check: @Sendable (any AsyncKVStoring) async -> TypeCheck

    /// The typed keys of TaskFlow's settings.
    static let taskFlow = [TypedKey(TaskKeys.onboarding), TypedKey(TaskKeys.launchCount), TypedKey(TaskKeys.reminder)]

    /// The key named `name` in ``taskFlow``, or nil when TaskFlow declares no such key.
    static func taskFlow(named name: String) -> TypedKey? {
        taskFlow.first { $0.name == name }
    }

    /// The typed key of `key`, checked with its migrations.
    init<Value>(_ key: KVKey<Value>) {
        name = key.key
        typeName = "\(Value.self)"
        check = { store in await Self.check(key, in: store) }
    }

    /// The typed key of `key`, checked with its migrations; its default plays no part in the check.
    init<Value>(_ key: KVKeyWithDefault<Value>) {
        self.init(key.withoutDefault)
    }

    /// How the value stored for this key in `store` reads as ``typeName``.
    func check(in store: any AsyncKVStoring) async -> TypeCheck {
        await check(store)
    }

    /// Reads `key` from `store` first without its migrations, then, when that does not decode, with them.
    private static func check<Value>(_ key: KVKey<Value>, in store: any AsyncKVStoring) async -> TypeCheck {
        do {
            _ = try await store.value(for: key.withoutMigrations)
            return .decodes
        } catch KVStoreError.decodingFailed where !key.migrations.isEmpty {
            do {
                _ = try await store.value(for: key)
                return .migrates
            } catch {
                return TypeCheck(error)
            }
        } catch {
            return TypeCheck(error)
        }
    }
}
