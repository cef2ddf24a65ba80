public import ForgeCrypt
internal import Foundation
internal import PostgresNIO

// Changing the master key of a namespace's secrets, in one database transaction: see "Changing the master key" in the
// module's documentation (ForgePostgres.md) for what readers, writers and a killed connection see.
extension PostgresCrypt: AsyncMasterKeyRotating {
    /// How many items one statement of a rotation writes.
    static let rotationBatchSize = 500

    /// Seals every secret of this namespace again under `newKey`, in one database transaction, and returns the store
    /// opened with it.
    ///
    /// This store and its copies (a store wrapped for events or faults, a service's) go on with `newKey` once it
    /// returns: a server rotates without handing a new instance to every holder of this one. Every other store still
    /// on the old key, in any process, stops opening the namespace when the transaction commits. The store returned
    /// is opened with `newKey` too. When the namespace already has `newKey` (a rotation run again, or `newKey` is this
    /// store's key), nothing is changed.
    ///
    /// The transaction locks the namespace's header row, reads every item, seals each again under the new key (under
    /// its new name, the old row removed) and replaces the header with the new key's; nothing is applied until it
    /// commits, so a connection the server ends, or a process killed, at any point leaves the namespace on the old key,
    /// and running the rotation again does it. Readers go on with the old key until the commit, and see the new
    /// key's rows whole after it (each statement reads one snapshot). Writes and removals of any store of the
    /// namespace wait for the commit (they lock the header row shared), then a store still on the old key throws
    /// `CryptStoreError.masterKeyRotated(path:)`. Other namespaces are not touched. A namespace whose header records
    /// a rotation in phases (the vault's design) is finished in a transaction by a store of its new key first.
    ///
    /// ```swift
    /// let secrets = PostgresCrypt(client: client, namespace: "taskflow", masterKey: .passphrase(old))
    /// let rotated = try await secrets.rotateMasterKey(to: .passphrase(new))
    /// ```
    ///
    /// - Parameters:
    ///   - newKey: The new master key. A key file that does not exist is created, owner-only; a passphrase gets a new
    ///     salt.
    ///   - progress: Told each step, and awaited, while the transaction is open (keep it short: writers of the
    ///     namespace wait meanwhile, so a handler that writes to the namespace, or awaits such a write, waits for
    ///     ever). The items are written 500 to a statement: each item is told once its statement ran.
    /// - Returns: The store, opened with `newKey`, on the same client, table, namespace and connection wait.
    /// - Throws: The `CryptStoreError` of a store that cannot be prepared (a wrong master key for this store, when
    ///   `newKey` does not open the namespace either), `CryptStoreError.invalidMasterKey(reason:)` for a new key that
    ///   cannot be used, the errors of a new key file, `CryptStoreError.tamperedItem(key:)` naming the row's `item`
    ///   when a sealed item opens with neither key, `CryptStoreError.masterKeyRotated(path:)` or
    ///   `CryptStoreError.vaultReplaced(path:)` when the namespace's header changed since this store prepared, or
    ///   `CryptStoreError.openFailed(path:underlying:)` naming the table and namespace when the server or the
    ///   connection fails. Nothing is changed when it throws before the commit is sent; when the connection fails as
    ///   the commit is answered, the server may have applied it, so keep both keys until a rerun of the rotation
    ///   (which finishes or finds it done) returns.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void = { _ in }
    ) async throws -> PostgresCrypt {
        do {
            var sealer = try await rotating { try await preparedSealerForRotation() }
            // The rotation in phases this store was opened with the new key of first, then the one to `newKey`.
            while let rotation = try sealer.nextRotation(to: newKey, location: location) {
                try await apply(rotation, from: sealer.header, progress: progress)
                sealer = rotation.newSealer
            }
            await progress(.finished)
            return opened(with: newKey, sealer: sealer)
        } catch let error as CryptStoreError where error.mayMeanRotationWasDone {
            // Done before (this is it run again): the new key opens the namespace, and has nothing to do.
            let store = PostgresCrypt(
                client: client,
                namespace: namespace,
                masterKey: newKey,
                tableName: tableName,
                connectionWait: connectionWait
            )
            guard (try? await store.prepare()) != nil else { throw error }
            let rotated = try await store.rotateMasterKey(to: newKey, progress: progress)
            if let sealer = rotated.sealerSlot.current { sealerSlot.keep(sealer) }
            return rotated
        }
    }

    /// The sealer of the namespace's header, the store prepared first when needed.
    private func preparedSealerForRotation() async throws -> SecretSealer {
        try await prepare()
        guard let current = sealerSlot.current else {
            throw CryptStoreError.openFailed(path: location, underlying: "the store's preparation left no sealer")
        }
        return current
    }

    /// This store's client, table, namespace and connection wait, opened with `masterKey`, whose sealer `sealer` is.
    ///
    /// This store and its copies go on with `sealer` too: a holder of this store needs no new instance.
    private func opened(with masterKey: MasterKey, sealer: SecretSealer) -> PostgresCrypt {
        sealerSlot.keep(sealer)
        let store = PostgresCrypt(
            client: client,
            namespace: namespace,
            masterKey: masterKey,
            tableName: tableName,
            connectionWait: connectionWait
        )
        store.sealerSlot.keep(sealer)
        return store
    }

    /// Runs `work`, throwing any failure but a `CryptStoreError` as `CryptStoreError.openFailed(path:underlying:)`
    /// naming the namespace.
    private func rotating<Result>(_ work: () async throws -> Result) async throws -> Result {
        do {
            return try await work()
        } catch let error as CryptStoreError {
            throw error
        } catch {
            throw CryptStoreError.openFailed(path: location, underlying: FailureReason(postgres: error))
        }
    }

    /// Applies `rotation` in one transaction, when the namespace's header is still `expected`: every item of the old
    /// key resealed under its new name and its old row removed, then the new key's header in the header row.
    private func apply(
        _ rotation: SecretSealer.Rotation,
        from expected: Data,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void
    ) async throws {
        try await rotating {
            try await ConnectionLease(client: client, wait: connectionWait)
                .withConnection { [self] connection in
                    try await ConnectionLease.transaction(on: connection) { connection in
                        try await reseal(rotation, from: expected, progress: progress, on: connection)
                    }
                }
        }
        await progress(.switched)
    }

    /// The statements of a rotation, in the transaction open on `connection`; each fails as soon as the connection
    /// closes (``ConnectionLease/statement(_:on:)``), so that a connection the server ends between two of them fails
    /// the rotation rather than leave it waiting.
    private func reseal(
        _ rotation: SecretSealer.Rotation,
        from expected: Data,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void,
        on connection: PostgresConnection
    ) async throws {
        // The header row first, locked for update: writes of the namespace lock it shared, so a write that runs
        // ends before the items are read, and one that comes waits for the commit.
        let header = try await lockedHeader(on: connection)
        try rotation.checkStart(header: header, expected: expected, location: location)
        let (resealed, dropped) = try rotation.reseal(rows: try await items(on: connection))
        await progress(.began(itemCount: resealed.count))
        if !dropped.isEmpty { try await deleteItems(named: dropped, on: connection) }
        for start in stride(from: 0, to: resealed.count, by: Self.rotationBatchSize) {
            let end = min(start + Self.rotationBatchSize, resealed.count)
            let batch = resealed[start..<end]
            try await deleteItems(named: batch.map(\.oldName), on: connection)
            try await insertItems(batch.map { ($0.newName, $0.sealed) }, on: connection)
            for done in (start + 1)...end { await progress(.resealed(done, of: resealed.count)) }
        }
        let query: PostgresQuery = try """
        UPDATE \(unescaped: table.quoted) SET sealed = \(rotation.finishedHeader) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem)
        """
        _ = try await ConnectionLease.statement(query, on: connection)
    }

    /// The namespace's header, its row locked for update until the transaction ends; nil when it has none.
    private func lockedHeader(on connection: PostgresConnection) async throws -> Data? {
        let query: PostgresQuery = try """
        SELECT sealed FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem) FOR UPDATE
        """
        var header: Data?
        for try await sealed in try await ConnectionLease.statement(query, on: connection).decode(Data.self) {
            header = sealed
        }
        return header
    }

    /// Every row of the namespace but its header: each item's name and sealed bytes.
    private func items(on connection: PostgresConnection) async throws -> [(String, Data)] {
        let query: PostgresQuery = try """
        SELECT item, sealed FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item <> \(PostgresCryptTable.headerItem)
        """
        var rows: [(String, Data)] = []
        for try await row in try await ConnectionLease.statement(query, on: connection)
            .decode((String, Data).self)
        {
            rows.append(row)
        }
        return rows
    }

    /// Deletes the namespace's rows named `itemNames`, in one statement.
    private func deleteItems(named itemNames: [String], on connection: PostgresConnection) async throws {
        let query: PostgresQuery = try """
        DELETE FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item = ANY(\(itemNames))
        """
        _ = try await ConnectionLease.statement(query, on: connection)
    }

    /// Inserts, or replaces, the namespace's rows of `items` (each item's name and sealed bytes), in one statement.
    private func insertItems(_ items: [(name: String, sealed: Data)], on connection: PostgresConnection) async throws {
        let names = items.map { $0.name }
        let sealed = items.map { ByteBuffer(bytes: $0.sealed) }
        let query: PostgresQuery = try """
        INSERT INTO \(unescaped: table.quoted) (namespace, item, sealed) \
        SELECT sha256(\(namespaceBytes)), new.item, new.sealed FROM unnest(\(names)::text[], \(sealed)::bytea[]) \
        AS new(item, sealed) \
        ON CONFLICT (namespace, item) DO UPDATE SET sealed = excluded.sealed
        """
        _ = try await ConnectionLease.statement(query, on: connection)
    }
}
