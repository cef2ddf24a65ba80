public import ForgeCrypt
public import Foundation
public import PostgresNIO

/// An `AsyncCryptStoring` on a PostgreSQL table, shared by every server that reaches the database: each
/// secret is sealed in the process, in the vault's item format, before it is sent.
///
/// It is built on `AsyncCryptBackend`, as the vault is on `CryptBackend`: the library's typed API turns values into
/// bytes and back, and the store seals those bytes below it with a `SecretSealer`, looking up each key's item once
/// per call (`SecretSealer/item(for:)`).
///
/// The store uses a `PostgresClient` that the caller creates and runs; the store never runs or shuts it down:
///
/// ```swift
/// let client = PostgresClient(configuration: configuration)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await client.run() }
///     let secrets = PostgresCrypt(client: client, namespace: "taskflow", masterKey: .symmetric(key))
///     try await secrets.set("s3cr3t", for: AuthKeys.accessToken)
/// }
/// ```
///
/// ## What the database sees
/// Each namespace's secrets live in rows of one table (``tableName``, `forge_secrets` unless told), created on
/// first use or by ``prepare()``: `(namespace bytea, item text, sealed bytea, primary key (namespace, item))`.
/// `namespace` is the SHA-256 of the namespace; `item` is a keyed hash of the key name (`SecretSealer`'s
/// item name) and `sealed` the secret and its key name, sealed with AES-256-GCM and bound to the item's name, so a
/// sealed item copied onto another row fails to open. One header row per namespace (its `item` is `header`) holds the
/// vault's header: a random identifier, the kind of master key, the passphrase parameters and a key-check value. A
/// database administrator without the master key reads neither a secret nor a key name; they can delete rows, or put
/// back an older sealed item of the same key, which then reads as it was (as for the vault).
///
/// ## Master keys
/// The `MasterKey` kinds of the vault: a key file, a symmetric key or a passphrase (stretched once per
/// store, when it prepares). The first store of a namespace writes its header; stores starting at once agree on one.
/// A store with another master key than the namespace's header was made with fails every call with
/// `CryptStoreError/wrongMasterKey(path:createdWith:)` and writes nothing.
///
/// ## Failures
/// Every call is one statement, so a read sees a whole secret and concurrent writes of one key leave one of them whole;
/// a write cut short (its connection killed) leaves the previous secret. A failure of the server or of the connection
/// throws the operation's `CryptStoreError` case naming the key, with a `FailureReason`
/// saying what failed. When no connection can be had within ``connectionWait`` (the server is down, the pool is
/// busy), the call fails rather than wait. A sealed item that does not open throws
/// `CryptStoreError/tamperedItem(key:)`. A write or a removal checks, in its statement, that the namespace still
/// holds this store's header: a removed header is written back by a write, a header replaced by another store's throws
/// `CryptStoreError/vaultReplaced(path:)`, and one of the same secrets under a new master key (after
/// ``rotateMasterKey(to:progress:)``) throws `CryptStoreError/masterKeyRotated(path:)`, so no secret is sealed where
/// it cannot be read back; a read that finds nothing checks the header too, so a store still on the old key never
/// reads "not stored" where a secret is sealed under the new one. A store that starts
/// on a namespace whose header row is gone but whose items are there throws `CryptStoreError/corruptVault(path:reason:)`
/// rather than start a new header that would leave them unreadable for good, as the vault does.
public struct PostgresCrypt: Sendable {
    /// The name of the group of secrets this store holds; other namespaces in the table are never touched.
    public let namespace: String
    /// The table the rows live in.
    public let tableName: String
    /// How long a call waits for a connection of the client before it fails.
    public let connectionWait: Duration
    /// The client whose connections every call leases; the caller runs it.
    public let client: PostgresClient

    /// The key the namespace's header opens with.
    let masterKey: MasterKey
    /// The table's SQL.
    let table: PostgresCryptTable
    /// The namespace's canonical (NFC) UTF-8, which the table stores hashed.
    let namespaceBytes: Data
    /// Where the secrets are, as errors name it: the table and the namespace.
    let location: String
    /// Whether the table and the header are ready; shared by copies of the store.
    private let preparation = Preparation()
    /// The sealer of the namespace's header, once prepared (or given by a rotation); shared by copies of the store.
    let sealerSlot = SealerSlot()

    /// Creates a store for `namespace`'s rows of `tableName`, on `client`'s connections.
    ///
    /// Nothing is sent to the server, and the master key is not read, until the first call.
    ///
    /// - Parameters:
    ///   - client: The client to lease connections from. The caller runs it (`client.run()`) for as long as the
    ///     store is used.
    ///   - namespace: The group of secrets of this store. Any string.
    ///   - masterKey: The key the secrets are sealed under; see `MasterKey`.
    ///   - tableName: The table, created when missing: a plain identifier (`a`–`z`, `0`–`9`, `_`, at most 50
    ///     characters). Defaults to `forge_secrets`.
    ///   - connectionWait: How long a call waits for a connection before it throws. Defaults to 10 seconds.
    public init(
        client: PostgresClient,
        namespace: String,
        masterKey: MasterKey,
        tableName: String = "forge_secrets",
        connectionWait: Duration = .seconds(10)
    ) {
        self.client = client
        self.namespace = namespace
        self.masterKey = masterKey
        self.tableName = tableName
        self.connectionWait = connectionWait
        self.table = PostgresCryptTable(name: tableName)
        self.namespaceBytes = Data(namespace.precomposedStringWithCanonicalMapping.utf8)
        self.location = "PostgreSQL table '\(tableName)', namespace '\(namespace)'"
    }

    /// Creates the table when it is missing, then reads the namespace's header, or writes a new one, and checks the
    /// master key against it.
    ///
    /// Every call does this once per store before its first statement; call it at start-up to find a problem (a wrong
    /// master key, a missing permission, an unreachable server) early. When the table is there it only reads the
    /// catalog, so a role that may only read and write the table's rows uses a table an administrator made. Stores
    /// preparing at once, in any process, agree on one header. A failed preparation is tried again by the next call.
    ///
    /// - Throws: ``PostgresStoreError/prepareFailed(table:underlying:)`` when the table or the header cannot be read
    ///   or written, or the `CryptStoreError` of a master key that does not open the header
    ///   (`CryptStoreError/wrongMasterKey(path:createdWith:)`,
    ///   `CryptStoreError/keyFileNotFound(path:vaultPath:)`, …), or `CryptStoreError/corruptVault(path:reason:)` when
    ///   the namespace holds secrets but its header row is gone.
    public func prepare() async throws {
        try await preparation.run { [self] in
            // The store a rotation returns holds the new key's sealer already.
            if sealerSlot.current != nil { return }
            try table.checkName()
            let stored = try await preparing { [self] connection in
                try await table.createIfMissing(on: connection)
                return try await readHeader(on: connection)
            }
            if let stored {
                sealerSlot.keep(try SecretSealer(masterKey: masterKey, header: stored, location: location))
                return
            }
            let created = try SecretSealer(newHeaderFor: masterKey, location: location)
            // Never replaces a header: a concurrent store's header wins, and this one opens it. Never starts a new
            // header beside items either: they were sealed under the one that is gone, and would be lost for good.
            let agreed = try await preparing { [self] connection in
                try await insertHeader(created.header, intoEmptyNamespaceOnly: true, on: connection)
                return try await readHeader(on: connection)
            }
            guard let agreed else { throw CryptStoreError.headerRowMissing(location: location) }
            if agreed == created.header {
                sealerSlot.keep(created)
            } else {
                sealerSlot.keep(try SecretSealer(masterKey: masterKey, header: agreed, location: location))
            }
        }
    }
}

extension PostgresCrypt: AsyncCryptStoring, AsyncCryptBackend {
    /// The secret stored under `name`, opened from its sealed row, or nil when none is stored.
    ///
    /// - Throws: `CryptStoreError/tamperedItem(key:)` when the sealed item does not open,
    ///   `CryptStoreError/masterKeyRotated(path:)` when nothing is found because the namespace moved to another master
    ///   key, or `CryptStoreError/readFailed(key:underlying:)`.
    public func storedSecret(named name: String) async throws -> Data? {
        // One look-up of the key's item names the row and opens what it holds.
        let sealer = try await preparedSealer(for: .read(name))
        let item = sealer.item(for: name)
        let sealed = try await perform(.read(name)) { [self] connection in
            let query: PostgresQuery = try """
            SELECT sealed FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item = \(item.name)
            """
            var sealed: Data?
            for try await row in try await connection.query(query, logger: ConnectionLease.logger)
                .decode(Data.self)
            {
                sealed = row
            }
            return sealed
        }
        if let sealed { return try sealer.open(sealed, as: item) }
        // A rotation in phases (another store's) records this store's key as its new key: the item may be the old
        // key's still. Then the header, so that a store on the old key of a rotation is told, not answered nil.
        let old = sealer.oldKeySealer
        let oldItem = old?.item(for: name)
        let found = try await perform(.read(name)) { [self] connection in
            try await rows(named: [oldItem?.name, PostgresCryptTable.headerItem].compactMap { $0 }, on: connection)
        }
        if let old, let oldItem, let sealed = found[oldItem.name] { return try old.open(sealed, as: oldItem) }
        try sealer.checkKey(against: found[PostgresCryptTable.headerItem], location: location)
        return nil
    }

    /// Seals `secret` and stores it under `name`, in one statement that also checks the namespace's header.
    ///
    /// The statement holds the header row's lock (shared) while it writes, so a write waits for a rotation of the
    /// master key that runs, and then finds the new key's header.
    ///
    /// - Throws: `CryptStoreError/vaultReplaced(path:)`, `CryptStoreError/masterKeyRotated(path:)`,
    ///   `CryptStoreError/rotationInProgress(path:)` or `CryptStoreError/writeFailed(key:underlying:)`; the previous
    ///   secret is kept.
    public func store(_ secret: Data, named name: String) async throws {
        // One look-up of the key's item seals the secret and names its row.
        let sealer = try await preparedSealer(for: .write(name))
        let item = sealer.item(for: name)
        let sealed = try sealer.seal(secret, as: item)
        try await perform(.write(name)) { [self] connection in
            try await store(sealed, as: item, named: name, by: sealer, on: connection)
        }
    }

    /// Stores `sealed`, the secret of `name` sealed by `sealer` as `item`, on `connection`: alone, or in a
    /// `StorageTransaction`'s transaction.
    ///
    /// - Throws: As ``store(_:named:)`` does, or what the server throws.
    func store(
        _ sealed: Data,
        as item: SecretSealer.Item,
        named name: String,
        by sealer: SecretSealer,
        on connection: PostgresConnection
    ) async throws {
        // Further passes follow a header that was removed, and written back here, or that holds this vault in
        // other bytes (written again by other SQL), which the statement then expects.
        var header = sealer.header
        for _ in 0..<3 {
            if try await upsert(sealed, named: item.name, header: header, on: connection) { return }
            if let found = try await readHeader(on: connection) {
                try sealer.checkWrite(on: found, location: location)
                header = found
            } else {
                try await insertHeader(sealer.header, on: connection)
            }
        }
        throw CryptStoreError.writeFailed(
            key: name,
            underlying: "the header of namespace '\(namespace)' kept changing during the write"
        )
    }

    /// Removes the secret stored under `name`; succeeds when there is none.
    ///
    /// One statement, which removes nothing when the namespace's header is no longer this store's.
    ///
    /// - Throws: `CryptStoreError/vaultReplaced(path:)`, `CryptStoreError/masterKeyRotated(path:)`,
    ///   `CryptStoreError/rotationInProgress(path:)` or `CryptStoreError/removeFailed(key:underlying:)`.
    public func removeSecret(named name: String) async throws {
        let sealer = try await preparedSealer(for: .remove(name))
        try await removeRows(.remove(name), item: sealer.itemName(for: name), sealer: sealer)
    }

    /// Whether a secret is stored under `name`; the sealed item is neither fetched nor opened (`get(_:)` tells
    /// whether it is intact).
    ///
    /// - Throws: `CryptStoreError/masterKeyRotated(path:)` when nothing is found because the namespace moved to another
    ///   master key, or `CryptStoreError/readFailed(key:underlying:)`.
    public func hasSecret(named name: String) async throws -> Bool {
        let sealer = try await preparedSealer(for: .read(name))
        let itemName = sealer.itemName(for: name)
        let exists = try await perform(.read(name)) { [self] connection in
            let query: PostgresQuery = try """
            SELECT EXISTS (SELECT 1 FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item = \(itemName))
            """
            var exists = false
            for try await found in try await connection.query(query, logger: ConnectionLease.logger)
                .decode(Bool.self)
            {
                exists = found
            }
            return exists
        }
        if exists { return true }
        // As for a read: the old key's item of a rotation in phases, then the header.
        let oldItemName = sealer.oldKeySealer?.itemName(for: name)
        let found = try await perform(.read(name)) { [self] connection in
            try await rows(named: [oldItemName, PostgresCryptTable.headerItem].compactMap { $0 }, on: connection)
        }
        if let oldItemName, found[oldItemName] != nil { return true }
        try sealer.checkKey(against: found[PostgresCryptTable.headerItem], location: location)
        return false
    }

    /// The keys that hold a secret in this namespace, in their canonical (NFC) form, as `keys()` lists them sorted.
    ///
    /// No key name is in the table: each sealed item is opened to read the name sealed in it, which must be the one
    /// its row is named after. Rows whose `item` is not an item's name are left out.
    ///
    /// - Throws: `CryptStoreError/tamperedItem(key:)` naming the row's `item` when a sealed item does not
    ///   open as that item, `CryptStoreError/masterKeyRotated(path:)` when the namespace moved to another master key,
    ///   or `CryptStoreError/listFailed(underlying:)`.
    public func storedNames() async throws -> [String] {
        let sealer = try await preparedSealer(for: .list)
        // The header in the same statement: the rows and the header it checks are of one snapshot.
        let rows = try await perform(.list) { [self] connection in
            let query: PostgresQuery = try """
            SELECT item, sealed FROM \(unescaped: table.quoted) WHERE namespace = sha256(\(namespaceBytes))
            """
            var rows: [(String, Data)] = []
            for try await row in try await connection.query(query, logger: ConnectionLease.logger)
                .decode((String, Data).self)
            {
                rows.append(row)
            }
            return rows
        }
        try sealer.checkKey(against: rows.first { $0.0 == PostgresCryptTable.headerItem }?.1, location: location)
        return try sealer.keys(in: rows)
    }

    /// Removes every secret of this store's namespace, in one statement; the header stays, so the store remains
    /// usable, and other namespaces are untouched.
    ///
    /// The statement removes nothing when the namespace's header is no longer this store's.
    ///
    /// - Throws: `CryptStoreError/vaultReplaced(path:)`, `CryptStoreError/masterKeyRotated(path:)`,
    ///   `CryptStoreError/rotationInProgress(path:)` or `CryptStoreError/removeAllFailed(underlying:)`.
    public func removeAll() async throws {
        let sealer = try await preparedSealer(for: .removeAll)
        try await removeRows(.removeAll, item: nil, sealer: sealer)
    }
}

extension PostgresCrypt {
    /// Prepares the store and returns the sealer of its namespace's header; a failure to reach the server is thrown
    /// as `operation`'s error, a master key that does not open the header as its own error.
    func preparedSealer(for operation: StoreOperation) async throws -> SecretSealer {
        try await reporting(operation) { [self] in
            try await prepare()
            guard let current = sealerSlot.current else {
                throw CryptStoreError.openFailed(path: location, underlying: "the store's preparation left no sealer")
            }
            return current
        }
    }

    /// Runs `body` on a connection; any failure but a `CryptStoreError` is thrown as `operation`'s
    /// error.
    func perform<Result: Sendable>(
        _ operation: StoreOperation,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await reporting(operation) { [self] in
            try await ConnectionLease(client: client, wait: connectionWait).withConnection(body)
        }
    }

    /// Runs `work`, throwing any failure but a `CryptStoreError` as `operation`'s error.
    private func reporting<Result>(
        _ operation: StoreOperation,
        _ work: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await work()
        } catch let error as CryptStoreError {
            throw error
        } catch {
            throw operation.cryptStoreError(FailureReason(postgres: error))
        }
    }

    /// Runs a step of the preparation on a connection; a failure is thrown as
    /// ``PostgresStoreError/prepareFailed(table:underlying:)``.
    private func preparing<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await ConnectionLease(client: client, wait: connectionWait).withConnection(body)
        } catch {
            throw PostgresStoreError.prepareFailed(table: tableName, underlying: FailureReason(postgres: error))
        }
    }

    /// The sealed rows of the namespace named `itemNames` (items, or the header), by name; a name without a row is
    /// left out.
    private func rows(named itemNames: [String], on connection: PostgresConnection) async throws -> [String: Data] {
        let query: PostgresQuery = try """
        SELECT item, sealed FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item = ANY(\(itemNames))
        """
        var rows: [String: Data] = [:]
        for try await (item, sealed) in try await connection.query(query, logger: ConnectionLease.logger)
            .decode((String, Data).self)
        {
            rows[item] = sealed
        }
        return rows
    }

    /// Removes the secret whose item is `itemName`, or every secret when it is nil, unless the namespace's header is
    /// no longer `sealer`'s (then nothing is removed, and the header's error is thrown).
    ///
    /// - Throws: The errors of `SecretSealer.checkWrite(on:location:)`, or `operation`'s error.
    private func removeRows(_ operation: StoreOperation, item itemName: String?, sealer: SecretSealer) async throws {
        try await perform(operation) { [self] connection in
            try await removeRows(operation, item: itemName, sealer: sealer, on: connection)
        }
    }

    /// Removes the rows as ``removeRows(_:item:sealer:)`` does, on `connection`: alone, or in a
    /// `StorageTransaction`'s transaction.
    func removeRows(
        _ operation: StoreOperation,
        item itemName: String?,
        sealer: SecretSealer,
        on connection: PostgresConnection
    ) async throws {
        // Further passes follow a header that holds this vault in other bytes (written again by other SQL).
        var header = sealer.header
        for _ in 0..<3 {
            let found = try await delete(item: itemName, unlessTheHeaderIsOtherThan: header, on: connection)
            guard let found, found != header else { return }
            try sealer.checkWrite(on: found, location: location)
            header = found
        }
        throw operation.cryptStoreError(
            .other("the header of namespace '\(namespace)' kept changing during the removal")
        )
    }

    /// Deletes the row of the item `itemName`, or every item's row when it is nil, in one statement that locks the
    /// header row first (`FOR SHARE`, as a write's does) and deletes nothing when the header is there and is not
    /// `header`.
    ///
    /// - Returns: The namespace's header as the statement found it once locked, or nil when it has none (and the rows
    ///   were deleted).
    private func delete(
        item itemName: String?,
        unlessTheHeaderIsOtherThan header: Data,
        on connection: PostgresConnection
    ) async throws -> Data? {
        let query: PostgresQuery
        if let itemName {
            query = try """
            WITH header AS (SELECT sealed FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem) FOR SHARE), \
            removed AS (DELETE FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item = \(itemName) \
            AND NOT EXISTS (SELECT 1 FROM header WHERE sealed <> \(header))) \
            SELECT sealed FROM header
            """
        } else {
            query = try """
            WITH header AS (SELECT sealed FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem) FOR SHARE), \
            removed AS (DELETE FROM \(unescaped: table.quoted) \
            WHERE namespace = sha256(\(namespaceBytes)) AND item <> \(PostgresCryptTable.headerItem) \
            AND NOT EXISTS (SELECT 1 FROM header WHERE sealed <> \(header))) \
            SELECT sealed FROM header
            """
        }
        var found: Data?
        for try await sealed in try await connection.query(query, logger: ConnectionLease.logger).decode(Data.self) {
            found = sealed
        }
        return found
    }

    /// The namespace's header as stored, or nil when it has none.
    private func readHeader(on connection: PostgresConnection) async throws -> Data? {
        let query: PostgresQuery = try """
        SELECT sealed FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item = \(PostgresCryptTable.headerItem)
        """
        var header: Data?
        for try await sealed in try await connection.query(query, logger: ConnectionLease.logger).decode(Data.self) {
            header = sealed
        }
        return header
    }

    /// Writes `header` as the namespace's header, unless it has one; with `intoEmptyNamespaceOnly`, also unless the
    /// namespace holds items (whose header is gone).
    private func insertHeader(
        _ header: Data,
        intoEmptyNamespaceOnly: Bool = false,
        on connection: PostgresConnection
    ) async throws {
        let query: PostgresQuery = try """
        INSERT INTO \(unescaped: table.quoted) (namespace, item, sealed) \
        SELECT sha256(\(namespaceBytes)), \(PostgresCryptTable.headerItem), \(header) \
        WHERE NOT \(intoEmptyNamespaceOnly) OR NOT EXISTS (SELECT 1 FROM \(unescaped: table.quoted) \
        WHERE namespace = sha256(\(namespaceBytes)) AND item <> \(PostgresCryptTable.headerItem)) \
        ON CONFLICT (namespace, item) DO NOTHING
        """
        _ = try await connection.query(query, logger: ConnectionLease.logger)
    }

    /// Inserts or replaces the sealed `item` named `itemName`, when the namespace's header is `header`.
    ///
    /// The statement locks the header row (`FOR SHARE`) as it checks it, and keeps the lock until it ends: a rotation,
    /// which locks the row for update before it reads the items, waits for the write, and a write that comes during a
    /// rotation waits for it, then checks the header the rotation committed (PostgreSQL checks a row that changed
    /// while a statement waited for its lock again, as it is now).
    ///
    /// - Returns: False when nothing was written: the namespace's header is missing or another.
    private func upsert(
        _ item: Data,
        named itemName: String,
        header: Data,
        on connection: PostgresConnection
    ) async throws -> Bool {
        let query: PostgresQuery = try """
        INSERT INTO \(unescaped: table.quoted) AS stored (namespace, item, sealed) \
        SELECT sha256(\(namespaceBytes)), \(itemName), \(item) \
        WHERE EXISTS (SELECT 1 FROM \(unescaped: table.quoted) WHERE namespace = sha256(\(namespaceBytes)) \
        AND item = \(PostgresCryptTable.headerItem) AND sealed = \(header) FOR SHARE) \
        ON CONFLICT (namespace, item) DO UPDATE SET sealed = excluded.sealed \
        RETURNING true
        """
        var written = false
        for try await row in try await connection.query(query, logger: ConnectionLease.logger).decode(Bool.self) {
            written = row
        }
        return written
    }
}
