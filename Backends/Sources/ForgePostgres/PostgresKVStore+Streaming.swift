public import ForgeKVStore
internal import Foundation

extension PostgresKVStore {
    /// A stream of the value stored for `key`: the value the store holds once the stream listens, then the value
    /// after each change by any store or process writing the table, skipping values stored identically (equal, and
    /// the same JSON: `-0.0` after `0.0` is emitted; `KVStreamFilter` has the rule); it ends when the consuming task
    /// is cancelled, or when the client's ``PostgresStoreService`` ends it.
    ///
    /// The stream re-reads the key when the table's trigger notifies a write of the key or of an older name its
    /// migrations read, and whenever the store's listening connection starts again after a drop, so it emits what
    /// `get(_:)` reads. Its first value is read only once the store listens on the table's channel (at once when
    /// another stream of the store listens already), so every write after that read is notified: make the stream
    /// before the writes it must see, and the last of them is never lost.
    ///
    /// Which values may fold into one (the last value is never lost: the stream ends on what the table holds):
    /// - Writes made after `stream(_:)` returns but before the store listens fold into the first value.
    /// - Values set and replaced between two reads of the stream fold into the one the later read finds: a read
    ///   follows each notification, and notifications that arrive during a read lead to one read after it.
    /// - While the listening connection is down, changes fold into the value read when it listens again.
    ///
    /// While the server cannot be read, the stream waits and reads again, and yields nothing.
    ///
    /// A value with a lifetime is read again when it expires, by the clock of ``expiry``, so the stream emits nil
    /// then (or the value of an older name that is still there) even when no row changes.
    ///
    /// While a ``PostgresStoreService`` of the store's client runs, the stream ends with it: on a graceful shutdown
    /// after one last read, so its last value holds every write committed before the shutdown; on a cancellation at
    /// once. A stream made once the service ended ends at once, with no value.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> {
        let (values, output) = AsyncStream<T?>.makeStream()
        let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let payloads = Set(
            key.storedNames.map { PostgresKVTable.payload(namespace: storedNamespace, key: StoredText.stored($0)) }
        )
        let prepareTable: @Sendable () async throws -> Void = { [self] in try await prepare() }
        let clock = expiryClock
        guard let subscription = notifications.subscribe(payloads: payloads, changed: changed, prepare: prepareTable)
        else {
            // The client's `PostgresStoreService` ended the stores' work: no stream starts until it runs again.
            output.finish()
            return values
        }
        let reader = Task { [notifications] in
            // The first signal comes once the store listens, so the first read is followed by a notification of
            // every later change. The signals end when the consumer stops, or when the service ends the stream
            // (gracefully, after one more signal).
            var filter = KVStreamFilter<T>()
            // Signals a read when the value read last expires; replaced by each read, cancelled when the stream ends.
            let expiryWake = KVExpiryWake(clock: clock) { changed.yield() }
            for await _ in changes {
                expiryWake.cancel()
                guard let read = await readForStream(key, subscription: subscription) else { break }
                if filter.admits(read.value) { output.yield(read.value) }
                expiryWake.schedule(at: read.expiresAt)
            }
            expiryWake.cancel()
            output.finish()
            // Once no read of this stream is under way, so that a service that waits for its streams waits for it.
            notifications.unsubscribe(subscription)
        }
        notifications.track(reader, of: subscription)
        output.onTermination = { _ in
            reader.cancel()
            changed.finish()
        }
        return values
    }

    /// Reads `key` as `get(_:)` does, with the first date a value it may have read expires, trying again after a pause
    /// while the server cannot be read; nil when cancelled, or when the read fails while the stream `subscription` is
    /// ending.
    private func readForStream<T: Codable & Sendable>(
        _ key: KVKey<T>,
        subscription: Int
    ) async -> (value: T?, expiresAt: Date?)? {
        while !Task.isCancelled {
            do {
                let value = try await get(key)
                return (value, value == nil ? nil : try await firstExpiration(of: key))
            } catch {
                // Ending: the stream ends without this value rather than wait for the server.
                if notifications.isEnding(subscription) { return nil }
                try? await Task.sleep(for: NotificationHub.retryDelay)
            }
        }
        return nil
    }

    /// The first date a value stored under one of `key`'s names that has not expired yet expires.
    ///
    /// The value `get(_:)` reads is one of them, so it reads as missing (or as another of them) no earlier. A second
    /// read, after `get`: a write between the two is notified, and the stream reads again after it.
    private func firstExpiration<T: Codable & Sendable>(of key: KVKey<T>) async throws -> Date? {
        let now = expiryClock.now
        return try await storedValues(named: key.storedNames).values.compactMap(\.expiresAt).filter { $0 > now }.min()
    }
}
