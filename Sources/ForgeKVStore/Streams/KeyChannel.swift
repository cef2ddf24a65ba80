internal import ForgeCore
internal import Foundation

/// The streams that observe one key as one value type, updated together.
///
/// A ``ReactiveKVStore`` keeps one channel per observed key and value type. When the key changes, the channel
/// reads it from the store once, compares the value once with the one its streams last emitted, and yields it to
/// every stream under one lock, so a write seen by many observers costs one read and one comparison, not one per
/// observer. The channel does not know who changed the key: the wrapper's writes drive it, and so can anything
/// else that numbers its changes from the wrapper's counter, such as a watcher of the store's files.
///
/// Every stream of a channel has emitted the same values since it joined, so the channel keeps one last value for
/// all of them. Versions order the updates: each change, once made, takes a larger version than every change
/// before it, and the store is read after that. An update whose version is not newer than one already applied is
/// dropped, because its read may be staler. The update of the largest version was read after every change, so
/// the streams end on what the store holds.
final class KeyChannel<Value: Codable & Sendable & Equatable>: Sendable {
    /// The observed key, read as `Value`.
    let key: KVKey<Value>

    /// The streams and the last update they were given, behind one lock.
    private let state = LockedState(State())

    /// What wakes the channel when the value its streams hold expires, over a store that keeps lifetimes: a re-read on
    /// the store's clock.
    private let expiryWake: KVExpiryWake?

    /// Creates a channel, with no stream yet, for `key`.
    init(key: KVKey<Value>, expiryWake: KVExpiryWake? = nil) {
        self.key = key
        self.expiryWake = expiryWake
    }

    /// Reads the key from `base` and emits the value to every stream, unless an update of `version` or a newer one
    /// came first, or the streams already hold the value.
    ///
    /// - Parameters:
    ///   - base: The store to read; the read happens after the change numbered `version` was made.
    ///   - version: The change's number, taken after the change was made and before this read.
    func refresh(from base: any KVStoring, version: UInt64) {
        let (value, expiresAt) = Self.read(key, from: base)
        publish(value, expiringAt: expiresAt, version: version)
    }

    /// The value of `key` in `base` and when it expires: one read over the library's stores, the value and then its
    /// expiration date over another store that keeps lifetimes.
    static func read(_ key: KVKey<Value>, from base: any KVStoring) -> (value: Value?, expiresAt: Date?) {
        if let reading = base as? any KVBackend & ExpiringKVStoring { return reading.valueAndExpirationDate(of: key) }
        guard let expiring = base as? any ExpiringKVStoring else { return (base.get(key), nil) }
        let value = expiring.get(key)
        return (value, value == nil ? nil : (try? expiring.expirationDate(of: key)) ?? nil)
    }

    /// Emits `value`, read for the change numbered `version`, to every stream, unless an update of that version or
    /// a newer one came first, or the streams already hold the value; sets the wake for when it expires.
    func publish(_ value: Value?, expiringAt expiresAt: Date? = nil, version: UInt64) {
        state.withLock { state in
            let (_, isNew, applied) = state.apply(value, version: version)
            if applied { expiryWake?.schedule(at: expiresAt) }
            guard isNew else { return }
            for stream in state.streams.values { stream.yield(value) }
        }
    }

    /// Adds `stream`, which emits the channel's current value at once and every later update.
    ///
    /// `value` is what the new stream read after joining the ``ReactiveKVStore``'s registry, where `version` was
    /// the number of the last change. It is applied as an update of that version first, so the other streams see
    /// it too when no update of that version or a newer one has reached the channel yet (those still on their way
    /// are then dropped as not newer). If one has, the new stream starts from the value the channel holds instead:
    /// that read is as recent as the stream's own, and every stream of the channel stays on the same last value.
    ///
    /// - Parameters:
    ///   - stream: The new stream's continuation.
    ///   - id: The stream's number, for ``leave(_:)``.
    ///   - value: The value the stream read, after taking `version`.
    ///   - expiresAt: When that value expires, by the store's clock; nil when it has no lifetime.
    ///   - version: The registry's version when the stream joined it.
    func join(
        _ stream: AsyncStream<Value?>.Continuation,
        id: Int,
        value: Value?,
        expiringAt expiresAt: Date? = nil,
        version: UInt64
    ) {
        state.withLock { state in
            let (current, isNew, applied) = state.apply(value, version: version)
            if applied { expiryWake?.schedule(at: expiresAt) }
            if isNew {
                for other in state.streams.values { other.yield(current) }
            }
            state.streams[id] = stream
            stream.yield(current)
        }
    }

    /// The last update the channel applied, and its streams.
    private struct State: Sendable {
        /// The streams, by number.
        var streams: [Int: AsyncStream<Value?>.Continuation] = [:]
        /// The version of the last update applied; an update of this version or an older one is dropped.
        var version: UInt64 = 0
        /// The value of the last update applied; nil before the first, which any value is new to.
        var latest: Value??

        /// Records `value`, read for `version`, unless an update of that version or a newer one was applied first.
        ///
        /// Two reads for one version are equally recent (each was made after every change up to it), so the first
        /// one stays. Returns the value the streams hold afterwards, and whether `value` is new to them: true
        /// unless it was dropped or is stored identically to the value they held.
        mutating func apply(_ value: Value?, version: UInt64) -> (current: Value?, isNew: Bool, applied: Bool) {
            if let latest, version <= self.version { return (latest, false, false) }
            let isNew = latest.map { !KVStreamFilter.isStoredIdentically($0, value) } ?? true
            self.version = version
            latest = .some(value)
            return (value, isNew, true)
        }
    }
}

extension KeyChannel: AnyKeyChannel {

    /// The names the key is stored under: its own, then the older names its migrations read.
    var storedNames: [String] {
        key.storedNames
    }

    /// Removes the stream numbered `id`; it is given no more values.
    func leave(_ id: Int) {
        state.withLock { state in
            state.streams[id] = nil
            guard state.streams.isEmpty else { return }
            expiryWake?.cancel()
        }
    }

    /// Ends every stream and removes them.
    func finish() {
        let streams = state.withLock { state in
            defer {
                state.streams = [:]
                expiryWake?.cancel()
            }
            return Array(state.streams.values)
        }
        // Outside the lock: ending a stream runs its termination handler.
        for stream in streams { stream.finish() }
    }
}

/// A ``KeyChannel`` with its value type erased, as a ``ReactiveKVStore`` keeps it beside the channels of other
/// types for the same key.
protocol AnyKeyChannel: AnyObject, Sendable {

    /// The names the channel's key is stored under: its own, then the older names its migrations read.
    var storedNames: [String] { get }

    /// Reads the key from `base` as the channel's type and emits it to the channel's streams if it is new to them.
    func refresh(from base: any KVStoring, version: UInt64)

    /// Removes the stream numbered `id`.
    func leave(_ id: Int)

    /// Ends every stream of the channel.
    func finish()
}
