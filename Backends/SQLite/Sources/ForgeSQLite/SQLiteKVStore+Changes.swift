public import ForgeKVStore

extension SQLiteKVStore: KVChangeObserving {
    /// Tells of every change to this store's namespace, from anywhere: a write or remove of any store of this
    /// namespace on the same ``SQLiteDatabase`` by its key, as it returns; a commit of another connection or process
    /// on the file (another `SQLiteDatabase`, an app extension, the `sqlite3` shell) as nil, "any key may have
    /// changed", soon after it is committed.
    ///
    /// Other commits are not polled for: while any store of the database is observed, the database file and its
    /// write-ahead log are watched (inotify on Linux, dispatch sources on Apple platforms), and each write to them is
    /// checked against SQLite's `PRAGMA data_version`, which moves only when another connection commits. A commit of
    /// another namespace in the file is told as nil too: a `ReactiveKVStore` then reads its keys again, and emits
    /// nothing for a value that did not change.
    public func observeChanges(_ onChange: @escaping @Sendable (_ key: String?) -> Void) -> ChangeObservation {
        database.changes.observe(database, namespace: storedNamespace, onChange: onChange)
    }
}

extension SQLiteKVStore: AsyncKVStreaming {
    /// A stream of the value stored for `key`: the current value at once, then the value after every change made by
    /// any process to the database file, skipping values stored identically; `ReactiveKVStore/stream(_:)` over this
    /// store, kept for the stream's life.
    ///
    /// The stream is listening when `stream(_:)` returns: the file is watched by then. Writes of the stores on this
    /// ``SQLiteDatabase`` are each read after they are made, in order; commits of other connections and processes
    /// are read when the file's watch tells of them, so a burst of them may fold into its latest value. The last
    /// value emitted is what the database holds.
    public func stream<T: Codable & Sendable & Equatable>(_ key: KVKey<T>) -> AsyncStream<T?> {
        let reactive = ReactiveKVStore(self)
        let values = reactive.stream(key)
        let (stream, continuation) = AsyncStream<T?>.makeStream(bufferingPolicy: .unbounded)
        let forwarding = Task {
            for await value in values { continuation.yield(value) }
            continuation.finish()
        }
        // The wrapper lives as long as the stream: its end cancels the forwarding, which ends the wrapper's stream.
        continuation.onTermination = { _ in
            forwarding.cancel()
            withExtendedLifetime(reactive) {}
        }
        return stream
    }
}
