public import ForgeKVStore

extension PostgresKVStore {
    /// A stream of the value stored for `key`: the current value first, then the value after each change by any
    /// store or process writing the table, skipping values stored identically; it ends when the consuming task is
    /// cancelled.
    ///
    /// The stream re-reads the key when the table's trigger notifies a write of the key or of an older name its
    /// migrations read, and whenever the store's listening connection starts again after a drop. Values set and
    /// replaced between two reads are not all seen; the last one is. While the server cannot be read, the stream
    /// waits and reads again, and yields nothing.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> {
        let (values, output) = AsyncStream<T?>.makeStream()
        let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let payloads = Set(
            key.storedNames.map { PostgresKVTable.payload(namespace: storedNamespace, key: StoredText.stored($0)) }
        )
        let subscription = notifications.subscribe(payloads: payloads, changed: changed) { [self] in try await prepare()
        }
        let reader = Task {
            // The first signal comes once the store listens, so the first read is followed by a notification of
            // every later change.
            var filter = KVStreamFilter<T>()
            for await _ in changes {
                guard let value = await readForStream(key) else { return }
                if filter.admits(value) { output.yield(value) }
            }
        }
        output.onTermination = { [notifications] _ in
            reader.cancel()
            changed.finish()
            notifications.unsubscribe(subscription)
        }
        return values
    }

    /// Reads `key` as ``get(_:)`` does, trying again after a pause while the server cannot be read; nil when
    /// cancelled.
    private func readForStream<T: Codable & Sendable>(_ key: KVKey<T>) async -> T?? {
        while !Task.isCancelled {
            do {
                return .some(try await get(key))
            } catch {
                try? await Task.sleep(for: NotificationHub.retryDelay)
            }
        }
        return nil
    }
}
