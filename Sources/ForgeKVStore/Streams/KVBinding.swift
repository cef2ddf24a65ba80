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
/// The value is read from the store when the binding is made, so a view never shows nil before the first
/// update. A write through the binding updates ``value`` before it returns. After that the binding follows the
/// ``ReactiveKVStore/stream(_:)`` of its key: writes through the same `ReactiveKVStore` (another binding, or any
/// other code) are seen on the main actor's next turn, and over a ``DiskKVStore`` on Linux so are the writes of
/// other instances and processes on the same folder, within milliseconds. A change of an older name the key's
/// migrations read is seen as a change of the key. After each change the binding reads the
/// key back with ``KVStoring/value(for:)``, so ``value`` is always what the store holds, never an older value
/// from a burst of changes, and a value that does not decode as `Value` reads as nil with ``lastError`` saying
/// why (``KVStoreError/decodingFailed(key:underlying:)``).
///
/// The binding is `@MainActor`: SwiftUI reads it there, and `withObservationTracking` tells of a change before
/// it is made, so only a reader on the same actor as the writer is sure to read the new value when told. Code
/// away from the main actor, such as a server, observes the key with ``ReactiveKVStore/stream(_:)`` instead.
///
/// The binding keeps one task that follows the stream; the task holds the binding weakly and ends when the
/// binding is released, which ends its stream.
@MainActor
@Observable
public final class KVBinding<Value: Codable & Sendable & Equatable> {
    /// The key the binding reads and writes.
    public let key: KVKey<Value>

    /// The store the binding reads and writes, whose stream of ``key`` tells it of changes.
    public let store: ReactiveKVStore

    /// What the store holds for ``key``, as the binding last read or wrote it; observed through ``value``.
    private var current: Value?

    /// Why the binding's last write or read of ``key`` failed, or nil when it succeeded.
    ///
    /// A setter cannot throw, so a failed write of ``value`` is reported here, and ``value`` keeps what the store
    /// holds. A read that finds a value that does not decode as `Value` sets it to
    /// ``KVStoreError/decodingFailed(key:underlying:)`` and ``value`` to nil. The next write or read that
    /// succeeds sets it back to nil. Observed like ``value``, so a view can show it.
    public private(set) var lastError: KVStoreError?

    /// The task that follows the stream of ``key``, cancelled when the binding is released.
    @ObservationIgnored private var updates: Task<Void, Never>?

    /// Creates a binding of `key` in `store`, holding the value the store holds now.
    ///
    /// Give every binding and every other user of the key one shared `ReactiveKVStore`: writes through it are
    /// seen by all its bindings and streams at once.
    ///
    /// - Parameters:
    ///   - key: The key to read and write.
    ///   - store: The store that holds the key and tells of its changes.
    public init(_ key: KVKey<Value>, in store: ReactiveKVStore) {
        self.key = key
        self.store = store
        // Observed before the first read, so no change between the two is missed. Observed as any JSON, so that a
        // change between no value and one that does not decode as `Value`, both nil as `Value`, is told too; and
        // from the same names as `key` reads, so that a value found under an older name is told as well.
        let olderNames = key.storedNames.dropFirst().map { KVMigration<StoredJSON>.renamed(from: $0) }
        let changes = store.stream(KVKey<StoredJSON>(key.key, migrations: olderNames))
        read()
        updates = Task { [weak self] in
            // The stream starts with the value it read when made, which `read()` above has already read. Each later
            // value only says the key changed: the binding reads it as `Value`.
            for await _ in changes.dropFirst() {
                guard let self else { return }
                self.read()
            }
        }
    }

    /// Creates a binding of `key` in `store`, wrapped in a ``ReactiveKVStore`` of its own unless it is one.
    ///
    /// The binding then sees its own writes and, over a ``DiskKVStore`` on Linux, every write to the store's folder,
    /// from this process or another. Over other stores, and on Apple platforms for now, it does not see the writes
    /// made elsewhere in the process: to see those at once, share one ``ReactiveKVStore`` with the rest of the app
    /// and use ``init(_:in:)-(_,ReactiveKVStore)``.
    ///
    /// - Parameters:
    ///   - key: The key to read and write.
    ///   - store: The store that holds the key.
    public convenience init(_ key: KVKey<Value>, in store: any KVStoring) {
        self.init(key, in: store as? ReactiveKVStore ?? ReactiveKVStore(store))
    }

    /// Cancels the task that follows the stream, which ends the stream.
    deinit {
        updates?.cancel()
    }

    /// The value stored for ``key``, or nil when none is stored or it cannot be read as `Value`.
    ///
    /// Reading it is observed: a SwiftUI view or `withObservationTracking` that reads it is told when it changes.
    /// Setting it stores the new value (nil removes the key) through ``store``, as ``set(_:)`` does; a write that
    /// fails leaves the value as it was and is reported in ``lastError``.
    public var value: Value? {
        get { current }
        set { try? set(newValue) }
    }

    /// Stores `newValue` for ``key``, or removes the key when it is nil, and updates ``value``.
    ///
    /// Every binding and stream of the key through ``store`` is told. After a write that succeeds, the key is read
    /// back into ``value`` and ``lastError`` is nil; after one that fails, ``value`` is unchanged and ``lastError``
    /// is the error thrown.
    ///
    /// - Parameter newValue: The value to store, or nil to remove the key.
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` or ``KVStoreError/writeFailed(key:underlying:)``
    ///   when the value cannot be stored, ``KVStoreError/removeFailed(key:underlying:)`` when it cannot be
    ///   removed; ``value`` then keeps what the store holds.
    public func set(_ newValue: Value?) throws(KVStoreError) {
        let failure: KVStoreError
        do {
            if let newValue {
                try store.set(key, value: newValue)
            } else {
                try store.remove(key)
            }
            // Read back, so the value is what the store now holds, as it decodes what it stored.
            read()
            return
        } catch let error as KVStoreError {
            failure = error
        } catch {
            // Stores throw KVStoreError; a store that throws anything else has it named as this key's failure.
            let reason = FailureReason.other(String(describing: error))
            if newValue == nil {
                failure = .removeFailed(key: key.key, underlying: reason)
            } else {
                failure = .writeFailed(key: key.key, underlying: reason)
            }
        }
        update(error: failure)
        throw failure
    }

    /// Reads ``key`` from the store into ``value``, and its failure, if any, into ``lastError``.
    private func read() {
        do {
            update(value: try store.value(for: key), error: nil)
        } catch let error as KVStoreError {
            update(value: nil, error: error)
        } catch {
            update(value: nil, error: .readFailed(key: key.key, underlying: .other(String(describing: error))))
        }
    }

    /// Sets ``value`` and ``lastError``, each only when it changes, so observers are told of real changes only.
    private func update(value newValue: Value?, error: KVStoreError?) {
        if current != newValue { current = newValue }
        update(error: error)
    }

    /// Sets ``lastError`` when it changes.
    private func update(error: KVStoreError?) {
        if lastError != error { lastError = error }
    }
}
