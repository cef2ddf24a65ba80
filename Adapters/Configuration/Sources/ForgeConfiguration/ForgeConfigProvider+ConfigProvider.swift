public import Configuration
internal import ForgeKVStore
internal import Synchronization

extension ForgeConfigProvider: ConfigProvider {
    /// `ForgeConfigProvider`, followed by the provider's name in brackets when it was given one.
    public var providerName: String { lookup.providerName }

    /// The value of `key` in the provider's snapshot, read as `type`.
    ///
    /// A key the provider does not follow yet is followed from now on while ``run()`` runs, so a value set after the
    /// load reaches the snapshot.
    ///
    /// - Parameters:
    ///   - key: The configuration key, read from the store key ``storeKey(for:)`` names.
    ///   - type: The type to read the value as.
    /// - Returns: The value, or a result without one when the snapshot holds none.
    /// - Throws: ``ForgeConfigError/valueNotConvertible(key:type:stored:)`` when the value is not a `type`.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let storeKey = lookup.storeKey(for: key)
        let stored = state.withLock { state in
            state.know(storeKey)
            return state.values[storeKey]
        }
        return try lookup.result(for: key, storeKey: storeKey, type: type, stored: stored)
    }

    /// Reads `key` from the store, read as `type`, and updates the snapshot with it, unless the provider follows the
    /// key: then its stream keeps the snapshot.
    ///
    /// - Parameters:
    ///   - key: The configuration key, read from the store key ``storeKey(for:)`` names.
    ///   - type: The type to read the value as.
    /// - Returns: The value the store holds, or a result without one when it holds none.
    /// - Throws: The store's `KVStoreError.readFailed(key:underlying:)` when it cannot be read, or
    ///   ``ForgeConfigError/valueNotConvertible(key:type:stored:)`` when the value is not a `type`.
    nonisolated(nonsending) public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws
        -> LookupResult
    {
        let storeKey = lookup.storeKey(for: key)
        let since = state.withLock { state in
            state.know(storeKey)
            return state.version
        }
        let stored = try await store.get(KVKey<StoredConfigValue>(storeKey))
        // A followed key's snapshot value is its stream's: a read between two quick writes may see a value the stream
        // folds away, which must not stay in the snapshot.
        if !followers.isFollowing(storeKey) {
            state.withLock { $0.apply([(storeKey, stored)], unchangedSince: since, lookup: lookup) }
        }
        return try lookup.result(for: key, storeKey: storeKey, type: type, stored: stored)
    }

    /// Calls `updatesHandler` with the values of `key`: the snapshot's first, then the value after each change the
    /// store's stream of the key tells of, each read as `type` (a value that is not a `type` as a failure).
    ///
    /// The key is followed while the handler runs, whether or not ``run()`` runs, through one stream of the key
    /// however many watch it. Changes that follow each other quickly may fold into the last of them, as the store's
    /// stream folds them; the last value is never lost.
    ///
    /// - Parameters:
    ///   - key: The configuration key, read from the store key ``storeKey(for:)`` names.
    ///   - type: The type to read the values as.
    ///   - updatesHandler: The code that consumes the values; the watch ends when it returns.
    /// - Returns: What `updatesHandler` returns.
    /// - Throws: What `updatesHandler` throws.
    nonisolated(nonsending) public func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let storeKey = lookup.storeKey(for: key)
        let (updates, continuation) = AsyncStream<Result<LookupResult, any Error>>
            .makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = ProviderState.ValueWatcher(key: key, type: type, continuation: continuation)
        let id = state.withLock { $0.addValueWatcher(watcher, storeKey: storeKey, lookup: lookup) }
        followers.hold(storeKey) { await self.follow(storeKey) }
        let result: Return
        do {
            result = try await updatesHandler(ConfigUpdatesAsyncSequence(updates))
        } catch {
            await endWatch(id, of: storeKey)
            throw error
        }
        await endWatch(id, of: storeKey)
        return result
    }

    /// The values the provider holds now, which later changes leave as they are.
    public func snapshot() -> any ConfigSnapshot {
        state.withLock { $0.snapshot(lookup) }
    }

    /// Calls `updatesHandler` with the provider's snapshots: the current one first, then one after each change.
    ///
    /// Every key the provider knows (those a load found and those a reader asked for) is followed while the handler
    /// runs, whether or not ``run()`` runs.
    ///
    /// - Parameter updatesHandler: The code that consumes the snapshots; the watch ends when it returns.
    /// - Returns: What `updatesHandler` returns.
    /// - Throws: What `updatesHandler` throws.
    nonisolated(nonsending) public func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws ->
            Return
    ) async throws -> Return {
        let following = Task { await followKnownKeys() }
        let result: Return
        do {
            result = try await observeSnapshots { try await updatesHandler(ConfigUpdatesAsyncSequence($0)) }
        } catch {
            following.cancel()
            await following.value
            throw error
        }
        following.cancel()
        await following.value
        return result
    }

    /// Calls `body` with the provider's snapshots, the current one first, then one after each change, following no
    /// key: the changes are those that ``run()``, the watches, the fetches and the loads bring.
    nonisolated(nonsending) func observeSnapshots<Return: ~Copyable>(
        _ body: nonisolated(nonsending) (AsyncStream<any ConfigSnapshot>) async throws -> Return
    ) async throws -> Return {
        let (updates, continuation) = AsyncStream<any ConfigSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { $0.addSnapshotWatcher(continuation, lookup: lookup) }
        defer { state.withLock { $0.removeSnapshotWatcher(id) } }
        return try await body(updates)
    }

    /// Ends the value watch numbered `id` of `storeKey`, and waits for the key's task when the watch held it last.
    private func endWatch(_ id: Int, of storeKey: String) async {
        state.withLock { $0.removeValueWatcher(id, storeKey: storeKey) }
        await followers.release([storeKey])
    }
}
