public import Observation

/// One key of a store, as an `@Observable` property that SwiftUI views and `@Observable` models read and write.
///
/// Read ``value`` as you would a property: a SwiftUI view or `withObservationTracking` that reads it is told
/// when the key changes anywhere its ``ReactiveKVStore`` can see. Set it to write through to the store:
///
/// ```swift
/// let settings = ReactiveKVStore(DiskKVStore(directory: .applicationSupport, namespace: "settings"))
/// let onboarding = KVBinding(TaskKeys.onboarding, in: settings)
/// onboarding.value = true           // stored at once; every binding and stream of the key is told
/// print(onboarding.lastError as Any) // nil, or why the write failed
/// ```
///
/// `Value` is the type of ``value``, which the key decides:
/// - A binding of a ``KVKeyWithDefault`` is a `KVBinding<Bool>` for a `KVKeyWithDefault<Bool>`: ``value`` is the
///   stored value, or the key's default when none is stored or it does not decode. A model holds it as it is, and
///   a view binds its ``value`` directly (a `Toggle` of `Bindable(model.onboarding).value`). ``remove()`` makes it
///   the default again.
/// - A binding of a ``KVKey`` is a `KVBinding<Bool?>` for a `KVKey<Bool>`: ``value`` is nil when none is stored or
///   it does not decode, and setting it to nil removes the key.
///
/// The value is read from the store when the binding is made, so a view never shows nil, or the default, before
/// the first update. A write through the binding updates ``value`` before it returns. After that the binding
/// follows the changes of its key as ``ReactiveKVStore/stream(_:)`` does: writes through the same
/// `ReactiveKVStore` (another binding, or any other code) are seen on the main actor's next turn, and over a
/// ``DiskKVStore`` on Linux so are the writes of other instances and processes on the same folder, within
/// milliseconds. A change of an older name the key's migrations read is seen as a change of the key. After each
/// change the binding reads the key back with ``KVStoring/value(for:)``, so ``value`` is always what the store
/// holds, never an older value from a burst of changes, and a value that does not decode reads as nil (or the
/// default) with ``lastError`` saying why (``KVStoreError/decodingFailed(key:underlying:)``).
///
/// The binding is `@MainActor`: SwiftUI reads it there, and `withObservationTracking` tells of a change before
/// it is made, so only a reader on the same actor as the writer is sure to read the new value when told. Code
/// away from the main actor, such as a server, observes the key with ``ReactiveKVStore/stream(_:)`` instead.
///
/// The binding keeps one task that follows the key's changes; the task holds the binding weakly and ends when the
/// binding is released, which ends its stream.
@MainActor
@Observable
public final class KVBinding<Value: Codable & Sendable & Equatable> {
    /// The string of the key the binding reads and writes.
    public let key: String

    /// The store the binding reads and writes, whose stream of ``key`` tells it of changes.
    public let store: ReactiveKVStore

    /// What the store holds for ``key``, as the binding last read or wrote it; observed through ``value``.
    private var current: Value

    /// Why the binding's last write or read of ``key`` failed, or nil when it succeeded.
    ///
    /// A setter cannot throw, so a failed write of ``value`` is reported here, and ``value`` keeps what the store
    /// holds. A read that finds a value that does not decode sets it to
    /// ``KVStoreError/decodingFailed(key:underlying:)``, and ``value`` to nil or to the key's default. The next
    /// write or read that succeeds sets it back to nil. Observed like ``value``, so a view can show it.
    public private(set) var lastError: KVStoreError?

    /// How the binding reads and writes its key: what a binding of a ``KVKey`` and one of a ``KVKeyWithDefault``
    /// do differently.
    @ObservationIgnored private let access: Access

    /// The task that follows the changes of ``key``, cancelled when the binding is released.
    @ObservationIgnored private var updates: Task<Void, Never>?

    /// How a binding reads, writes and removes its key, as a `Value`.
    private struct Access {
        /// What ``value`` is when the key cannot be read: nil, or the key's default.
        let unreadable: Value
        /// Reads the key: the stored value, or nil or the default when nothing is stored.
        let read: @MainActor (ReactiveKVStore) throws -> Value
        /// Writes a value; a binding of a ``KVKey`` removes the key for nil.
        let write: @MainActor (ReactiveKVStore, Value) throws -> Void
        /// Removes the key.
        let remove: @MainActor (ReactiveKVStore) throws -> Void
        /// Whether `write` removes the key for this value.
        let removes: (Value) -> Bool
    }

    /// Creates a binding of the key named `key`, which values are stored under `storedNames`, holding the value the
    /// store holds now.
    private init(key: String, storedNames: [String], in store: ReactiveKVStore, access: Access) {
        self.key = key
        self.store = store
        self.access = access
        self.current = access.unreadable
        // Observed before the first read, so no change between the two is missed. Observed as any JSON, so that a
        // change between no value and one that does not decode as the key's type, both read alike, is told too; and
        // from the same names as the key reads, so that a value found under an older name is told as well.
        let olderNames = storedNames.dropFirst().map { KVMigration<StoredJSON>.renamed(from: $0) }
        let changes = store.stream(KVKey<StoredJSON>(key, migrations: olderNames))
        read()
        updates = Task { [weak self] in
            // The stream starts with the value it read when made, which `read()` above has already read. Each later
            // value only says the key changed: the binding reads it as its key's type.
            for await _ in changes.dropFirst() {
                guard let self else { return }
                self.read()
            }
        }
    }

    /// Cancels the task that follows the key's changes, which ends its stream.
    deinit {
        updates?.cancel()
    }

    /// The value stored for ``key``; when none is stored or it cannot be read, nil for a binding of a ``KVKey``
    /// and the default for one of a ``KVKeyWithDefault``.
    ///
    /// Reading it is observed: a SwiftUI view or `withObservationTracking` that reads it is told when it changes.
    /// Setting it stores the new value through ``store``, as ``set(_:)`` does (nil removes the key of a binding of a
    /// ``KVKey``); a write that fails leaves the value as it was and is reported in ``lastError``.
    public var value: Value {
        get { current }
        set { try? set(newValue) }
    }

    /// Stores `newValue` for ``key`` and updates ``value``; for a binding of a ``KVKey``, nil removes the key.
    ///
    /// Every binding and stream of the key through ``store`` is told. After a write that succeeds, the key is read
    /// back into ``value`` and ``lastError`` is nil; after one that fails, ``value`` is unchanged and ``lastError``
    /// is the error thrown. A binding of a ``KVKeyWithDefault`` stores a value equal to the default as any other:
    /// ``remove()`` removes it.
    ///
    /// - Parameter newValue: The value to store, or nil to remove the key of a binding of a ``KVKey``.
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``
    ///   when the value cannot be stored, ``KVStoreError/removeFailed(key:underlying:)`` when it cannot be
    ///   removed; ``value`` then keeps what the store holds.
    public func set(_ newValue: Value) throws(KVStoreError) {
        let removes = access.removes(newValue)
        try change(removes: removes) { try access.write(store, newValue) }
    }

    /// Removes the value stored for ``key``, and updates ``value``: nil, or the default of a ``KVKeyWithDefault``.
    ///
    /// Every binding and stream of the key through ``store`` is told, as by ``set(_:)``.
    ///
    /// - Throws: ``KVStoreError/removeFailed(key:underlying:)`` when it cannot be removed; ``value`` then keeps what
    ///   the store holds.
    public func remove() throws(KVStoreError) {
        try change(removes: true) { try access.remove(store) }
    }

    /// Makes `write`, then reads the key back; or records and throws its failure, named as a write of ``key``, or a
    /// remove when `removes`.
    private func change(removes: Bool, _ write: () throws -> Void) throws(KVStoreError) {
        let failure: KVStoreError
        do {
            try write()
            // Read back, so the value is what the store now holds, as it decodes what it stored.
            read()
            return
        } catch let error as KVStoreError {
            failure = error
        } catch {
            // Stores throw KVStoreError; a store that throws anything else has it named as this key's failure.
            let reason = FailureReason.other(String(describing: error))
            failure = removes ? .removeFailed(key: key, underlying: reason) : .writeFailed(key: key, underlying: reason)
        }
        update(error: failure)
        throw failure
    }

    /// Reads ``key`` from the store into ``value``, and its failure, if any, into ``lastError``.
    private func read() {
        do {
            update(value: try access.read(store), error: nil)
        } catch let error as KVStoreError {
            update(value: access.unreadable, error: error)
        } catch {
            update(
                value: access.unreadable,
                error: .readFailed(key: key, underlying: .other(String(describing: error)))
            )
        }
    }

    /// Sets ``value`` and ``lastError``, each only when it changes, so observers are told of real changes only.
    private func update(value newValue: Value, error: KVStoreError?) {
        if current != newValue { current = newValue }
        update(error: error)
    }

    /// Sets ``lastError`` when it changes.
    private func update(error: KVStoreError?) {
        if lastError != error { lastError = error }
    }
}

extension KVBinding {
    /// Creates a binding of `key` in `store`, holding the value the store holds now, or the key's default.
    ///
    /// ```swift
    /// let onboarding = KVBinding(TaskKeys.onboarding, in: settings)   // a KVBinding<Bool>
    /// if !onboarding.value { showOnboarding() }
    /// ```
    ///
    /// Give every binding and every other user of the key one shared `ReactiveKVStore`: writes through it are
    /// seen by all its bindings and streams at once.
    ///
    /// - Parameters:
    ///   - key: The key to read and write, and its default.
    ///   - store: The store that holds the key and tells of its changes.
    public convenience init(_ key: KVKeyWithDefault<Value>, in store: ReactiveKVStore) {
        let access = Access(
            unreadable: key.defaultValue,
            read: { store in try store.value(for: key) ?? key.defaultValue },
            write: { store, value in try store.set(key, value: value) },
            remove: { store in try store.remove(key) },
            removes: { _ in false }
        )
        self.init(key: key.key, storedNames: key.withoutDefault.storedNames, in: store, access: access)
    }

    /// Creates a binding of `key` in `store`, wrapped in a ``ReactiveKVStore`` of its own unless it is one.
    ///
    /// The binding then sees its own writes and, over a ``DiskKVStore`` on Linux, every write to the store's folder,
    /// from this process or another. Over other stores, and on Apple platforms for now, it does not see the writes
    /// made elsewhere in the process: to see those at once, share one ``ReactiveKVStore`` with the rest of the app.
    ///
    /// - Parameters:
    ///   - key: The key to read and write, and its default.
    ///   - store: The store that holds the key.
    public convenience init(_ key: KVKeyWithDefault<Value>, in store: any KVStoring) {
        self.init(key, in: store as? ReactiveKVStore ?? ReactiveKVStore(store))
    }

    /// Creates a binding of `key` in `store`, holding the value the store holds now, or nil.
    ///
    /// ```swift
    /// let projectName = KVBinding(KVKey<String>("taskflow.projectName"), in: settings)   // a KVBinding<String?>
    /// projectName.value = nil   // removes the key
    /// ```
    ///
    /// Give every binding and every other user of the key one shared `ReactiveKVStore`: writes through it are
    /// seen by all its bindings and streams at once.
    ///
    /// - Parameters:
    ///   - key: The key to read and write.
    ///   - store: The store that holds the key and tells of its changes.
    public convenience init<Stored>(_ key: KVKey<Stored>, in store: ReactiveKVStore) where Value == Stored? {
        let access = Access(
            unreadable: nil,
            read: { store in try store.value(for: key) },
            write: { store, value in
                if let value { try store.set(key, value: value) } else { try store.remove(key) }
            },
            remove: { store in try store.remove(key) },
            removes: { $0 == nil }
        )
        self.init(key: key.key, storedNames: key.storedNames, in: store, access: access)
    }

    /// Creates a binding of `key` in `store`, wrapped in a ``ReactiveKVStore`` of its own unless it is one.
    ///
    /// The binding then sees its own writes and, over a ``DiskKVStore`` on Linux, every write to the store's folder,
    /// from this process or another. Over other stores, and on Apple platforms for now, it does not see the writes
    /// made elsewhere in the process: to see those at once, share one ``ReactiveKVStore`` with the rest of the app.
    ///
    /// - Parameters:
    ///   - key: The key to read and write.
    ///   - store: The store that holds the key.
    public convenience init<Stored>(_ key: KVKey<Stored>, in store: any KVStoring) where Value == Stored? {
        self.init(key, in: store as? ReactiveKVStore ?? ReactiveKVStore(store))
    }
}
