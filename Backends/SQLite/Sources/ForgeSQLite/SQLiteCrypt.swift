public import ForgeCrypt
public import Foundation
internal import GRDB

/// A `CryptStoring` (and `AsyncCryptStoring`) on a table of a SQLite database file, which any number of stores and
/// processes share: each secret is sealed with `SecretSealer`, in the vault's item format, before it is written.
///
/// Each namespace's secrets are rows of one table, `forge_secrets`, created on first use beside the key-value stores'
/// `forge_kv`: stores of different namespaces on one database never see each other's secrets.
///
/// ```swift
/// let database = SQLiteDatabase(fileURL: folder.appendingPathComponent("taskflow.sqlite"))
/// let settings = SQLiteKVStore(database: database, namespace: "settings")
/// let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: .keyFile(keyURL))
/// try secrets.set("s3cr3t", for: AuthKeys.accessToken)
/// ```
///
/// ## What the file holds
/// A row per secret: `(namespace, item, sealed)`. `item` is a keyed hash of the key name (`SecretSealer`'s item name)
/// and `sealed` the secret and its key name sealed with AES-256-GCM, bound to the item's name, so a sealed item copied
/// onto another row fails to open. One header row per namespace (its `item` is `header`) holds the vault's header: a
/// random identifier, the kind of master key, the passphrase parameters and a key-check value. Whoever reads the file
/// without the master key reads neither a secret nor a key name; the namespaces are in the clear, as a vault's folder
/// names are.
///
/// ## Master keys
/// The `MasterKey` kinds of the vault: a key file, a symmetric key or a passphrase (stretched once per store, when it
/// prepares). The first store of a namespace writes its header; stores starting at once agree on one. A store with
/// another master key than the one the namespace's header was made with fails every call with
/// `CryptStoreError.wrongMasterKey(path:createdWith:)` and writes nothing.
///
/// ## Atomicity and durability
/// Every write is one transaction: a reader, or a process that crashes mid-write, finds the old secret or the new one.
/// What a power loss keeps is the store's `Durability`: `.flushed` by default, as the vault, so each commit flushes
/// the log before it returns; `.atomic` leaves the latest writes to the system.
///
/// ## Failures
/// A call that fails throws its operation's `CryptStoreError` naming the key, with a `FailureReason`: a database
/// another connection keeps locked past ``SQLiteDatabase/busyTimeout`` is `.busy`, a file that is not a SQLite
/// database is `.other` with a sentence naming the path. A sealed item that does not open (changed, or copied from
/// another row) throws `CryptStoreError.tamperedItem(key:)`. A write checks, in its transaction, that the namespace
/// still holds this store's header: a removed header is written back, and one replaced by another store's throws
/// `CryptStoreError.vaultReplaced(path:)`. A namespace whose header row is gone but whose items are there throws
/// `CryptStoreError.corruptVault(path:reason:)` rather than start a header that would leave them unreadable.
public struct SQLiteCrypt: Sendable {
    /// The database the store's rows live in.
    public let database: SQLiteDatabase
    /// The name of the group of secrets this store holds; other namespaces in the database are never touched.
    public let namespace: String
    /// Whether each write is flushed to the device before it returns.
    public let durability: Durability

    /// The key the namespace's header opens with.
    let masterKey: MasterKey
    /// ``namespace`` as rows store it.
    let storedNamespace: Data
    /// Where the secrets are, as errors name it: the file and the namespace.
    let location: String
    /// The namespace's sealer, once prepared; shared by copies of the store.
    let sealerSlot = SealerSlot()

    /// Creates a store for `namespace`'s secrets in `database`.
    ///
    /// Nothing is read, and the master key is not used, until the first call.
    ///
    /// - Parameters:
    ///   - database: The database, which other stores may share.
    ///   - namespace: The group of secrets of this store. Any string.
    ///   - masterKey: The key the secrets are sealed under; see `MasterKey`.
    ///   - durability: Whether each write is flushed to the device before it returns. Defaults to `.flushed`, as the
    ///     vault.
    public init(database: SQLiteDatabase, namespace: String, masterKey: MasterKey, durability: Durability = .flushed) {
        self.database = database
        self.namespace = namespace
        self.masterKey = masterKey
        self.durability = durability
        self.storedNamespace = SQLiteCryptTable.stored(namespace: namespace)
        self.location = "SQLite database '\(database.path)', namespace '\(namespace)'"
    }

    /// Creates a store for `namespace`'s secrets in the database file `fileURL`, opened for this store alone.
    ///
    /// Stores made this way on one file share its data, but each opens its own connections: give stores in one
    /// process one ``SQLiteDatabase`` instead.
    ///
    /// - Parameters:
    ///   - fileURL: The database file, created with its folder when missing.
    ///   - namespace: The group of secrets of this store. Any string.
    ///   - masterKey: The key the secrets are sealed under; see `MasterKey`.
    ///   - durability: Whether each write is flushed to the device before it returns. Defaults to `.flushed`.
    public init(fileURL: URL, namespace: String, masterKey: MasterKey, durability: Durability = .flushed) {
        self.init(
            database: SQLiteDatabase(fileURL: fileURL),
            namespace: namespace,
            masterKey: masterKey,
            durability: durability
        )
    }

    /// Opens the database, creates the secrets table when it is missing, then reads the namespace's header, or writes
    /// a new one, and checks the master key against it.
    ///
    /// Every call does this once per store before its first statement; call it at start-up to find a problem (a wrong
    /// master key, a file that is not a database) early. A failed preparation is tried again by the next call. On a
    /// read-only database (``SQLiteDatabase/isReadOnly``) nothing is created or written: the header is checked when
    /// the namespace has one, and a namespace without one holds no secret until another store writes it.
    ///
    /// - Throws: ``SQLiteStoreError/openFailed(path:underlying:)`` when the database or its table cannot be used, or
    ///   the `CryptStoreError` of a master key that does not open the header
    ///   (`CryptStoreError.wrongMasterKey(path:createdWith:)`, `CryptStoreError.keyFileNotFound(path:vaultPath:)`,
    ///   …), or `CryptStoreError.corruptVault(path:reason:)` when the namespace holds secrets but its header row is
    ///   gone.
    public func prepare() throws {
        do {
            _ = try openedSealer()
        } catch let error as CryptStoreError {
            throw error
        } catch {
            throw SQLiteStoreError.openFailed(
                path: database.path,
                underlying: FailureReason(sqlite: error, path: database.path)
            )
        }
    }
}

extension SQLiteCrypt: CryptStoring, CryptBackend {
    /// The secret stored under `name`, opened from its sealed row, or nil when none is stored.
    ///
    /// - Throws: `CryptStoreError.tamperedItem(key:)` when the sealed item does not open, or
    ///   `CryptStoreError.readFailed(key:underlying:)`.
    public func storedSecret(named name: String) throws -> Data? {
        try perform(.read(name)) {
            guard let sealer = try openedSealer() else { return nil }
            // One look-up of the key's item names the row and opens what it holds; then, when a rotation in phases
            // (another store's) records this store's key as its new key, the old key's item.
            for lookup in sealer.lookups(for: name) {
                if let sealed = try sealedItem(named: lookup.name) { return try lookup.open(sealed) }
            }
            try checkKeyAgainstStoredHeader(sealer)
            return nil
        }
    }

    /// Seals `secret` and stores it under `name`, in one transaction that also checks the namespace's header.
    ///
    /// - Throws: `CryptStoreError.vaultReplaced(path:)` or `CryptStoreError.writeFailed(key:underlying:)`; the previous
    ///   secret is kept.
    public func store(_ secret: Data, named name: String) throws {
        try database.apply([try storing(secret, named: name)])
    }

    /// Removes the secret stored under `name`; succeeds when there is none.
    ///
    /// - Throws: `CryptStoreError.removeFailed(key:underlying:)`.
    public func removeSecret(named name: String) throws {
        try database.apply([try removing(named: name)])
    }

    /// Whether a secret is stored under `name`; the sealed item is neither read nor opened (`get(_:)` tells whether it
    /// is intact).
    ///
    /// - Throws: `CryptStoreError.readFailed(key:underlying:)`.
    public func hasSecret(named name: String) throws -> Bool {
        try perform(.read(name)) {
            guard let sealer = try openedSealer() else { return false }
            for lookup in sealer.lookups(for: name) {
                let found = try database.read { db in
                    try Bool.fetchOne(
                        db.cachedStatement(sql: SQLiteCryptTable.exists),
                        arguments: [storedNamespace, lookup.name]
                    ) ?? false
                }
                if found { return true }
            }
            try checkKeyAgainstStoredHeader(sealer)
            return false
        }
    }

    /// The keys that hold a secret in this namespace, in their canonical (NFC) form, as `keys()` lists them sorted.
    ///
    /// No key name is in the table: each sealed item is opened to read the name sealed in it, which must be the one
    /// its row is named after. Rows whose `item` is not an item's name are left out.
    ///
    /// - Throws: `CryptStoreError.tamperedItem(key:)` naming the row's `item` when a sealed item does not open as that
    ///   item, or `CryptStoreError.listFailed(underlying:)`.
    public func storedNames() throws -> [String] {
        try perform(.list) {
            guard let sealer = try openedSealer() else { return [] }
            let (rows, header) = try database.read { db in
                let rows =
                    try Row.fetchAll(
                        db.cachedStatement(sql: SQLiteCryptTable.items),
                        arguments: [storedNamespace]
                    )
                    // Decoded with the throwing form: a row other SQL damaged fails the call, never traps.
                    .map { (try $0.decode(String.self, atIndex: 0), try $0.decode(Data.self, atIndex: 1)) }
                return (rows, try SQLiteCryptTable.header(of: storedNamespace, in: db))
            }
            try sealer.checkKey(against: header, location: location)
            return try sealer.keys(in: rows)
        }
    }

    /// Removes every secret of this namespace in one statement; the header stays, so the store remains usable, and
    /// other namespaces are untouched.
    ///
    /// - Throws: `CryptStoreError.removeAllFailed(underlying:)`.
    public func removeAll() throws {
        let sealer = try perform(.removeAll) {
            try database.refuseWritesIfReadOnly()
            return try self.sealer()
        }
        try database.apply([
            inThisVault(sealer, restoringARemovedHeader: false, failing: .removeAll) { db in
                try db.cachedStatement(sql: SQLiteCryptTable.deleteItems).execute(arguments: [storedNamespace])
            }
        ])
    }

    /// The number of secrets this namespace holds, counted from the rows' item names: no sealed item is read or
    /// opened.
    ///
    /// The store is prepared first, so a wrong master key fails it as it fails every call. A sealed item that does not
    /// open is counted, as the vault counts it, where `keys()` throws.
    ///
    /// It counts the rows ``itemCount(database:namespace:)`` counts, found after the store is prepared.
    ///
    /// - Throws: `CryptStoreError.listFailed(underlying:)`, or the error of a store that cannot be prepared.
    public func itemCount() throws -> Int {
        try perform(.list) {
            guard let sealer = try openedSealer() else { return }
            try checkKeyAgainstStoredHeader(sealer)
        }
        return try Self.itemCount(database: database, namespace: namespace) ?? 0
    }
}

extension SQLiteCrypt: AsyncCryptStoring {}

extension SQLiteCrypt {
    /// The write that stores `secret` under `name`, for `store(_:named:)` and for a transaction: the secret is sealed
    /// now, and the write checks the namespace's header before it stores the sealed item.
    ///
    /// On a read-only database it is the write the database refuses.
    ///
    /// - Throws: The `CryptStoreError` of a store that cannot be prepared, or
    ///   `CryptStoreError.writeFailed(key:underlying:)`.
    func storing(_ secret: Data, named name: String) throws -> SQLiteWrite {
        guard !database.isReadOnly else { return refused(.write(name)) }
        return try perform(.write(name)) {
            let sealer = try sealer()
            let item = sealer.item(for: name)
            let sealed = try sealer.seal(secret, as: item)
            return inThisVault(sealer, restoringARemovedHeader: true, failing: .write(name)) { db in
                try db.cachedStatement(sql: SQLiteCryptTable.upsert)
                    .execute(arguments: [storedNamespace, item.name, sealed])
            }
        }
    }

    /// The write that removes the secret under `name`, for `removeSecret(named:)` and for a transaction; it checks the
    /// namespace's header first.
    ///
    /// On a read-only database it is the write the database refuses.
    ///
    /// - Throws: The `CryptStoreError` of a store that cannot be prepared, or
    ///   `CryptStoreError.removeFailed(key:underlying:)`.
    func removing(named name: String) throws -> SQLiteWrite {
        guard !database.isReadOnly else { return refused(.remove(name)) }
        return try perform(.remove(name)) {
            let sealer = try sealer()
            let itemName = sealer.itemName(for: name)
            return inThisVault(sealer, restoringARemovedHeader: false, failing: .remove(name)) { db in
                try db.cachedStatement(sql: SQLiteCryptTable.delete).execute(arguments: [storedNamespace, itemName])
            }
        }
    }

    /// The write of `operation` on a read-only database, which the database refuses before it runs, as it refuses
    /// every store's write: nothing is sealed and no header is read for it, so that a transaction fails with the error
    /// of its first write whatever its stores.
    private func refused(_ operation: Operation) -> SQLiteWrite {
        SQLiteWrite(
            durability: durability,
            isOneStatement: true,
            failure: failure(operation),
            apply: { [path = database.path] _ in throw ReadOnlyRefusal(path: path) }
        )
    }

    /// A write that runs `change` after checking that the namespace's header is still this store's vault, so that a
    /// store whose namespace another vault has taken over (other SQL removed its rows, another master key wrote a
    /// header) changes none of that vault's secrets.
    ///
    /// - Parameters:
    ///   - sealer: The store's sealer, whose header the namespace's must be.
    ///   - restoringARemovedHeader: Whether a header row that was removed is written back first, so that an item the
    ///     change writes can be opened again (a write does; a removal needs no header).
    ///   - operation: The operation whose error a failure of SQLite is.
    ///   - change: The statements of the write.
    /// - Returns: The write, which fails with `CryptStoreError.vaultReplaced(path:)`, with
    ///   `CryptStoreError.masterKeyRotated(path:)` once the namespace has moved to another master key, with
    ///   `CryptStoreError.rotationInProgress(path:)` while a rotation in phases records one, or with what `change`
    ///   throws.
    private func inThisVault(
        _ sealer: SecretSealer,
        restoringARemovedHeader: Bool,
        failing operation: Operation,
        _ change: @escaping (Database) throws -> Void
    ) -> SQLiteWrite {
        SQLiteWrite(
            durability: durability,
            isOneStatement: false,
            failure: failure(operation),
            apply: { [storedNamespace, location] db in
                if let header = try SQLiteCryptTable.header(of: storedNamespace, in: db) {
                    try sealer.checkWrite(on: header, location: location)
                } else if restoringARemovedHeader {
                    try db.cachedStatement(sql: SQLiteCryptTable.upsert)
                        .execute(arguments: [storedNamespace, SQLiteCryptTable.headerItem, sealer.header])
                }
                try change(db)
            }
        )
    }
}

extension SQLiteCrypt {
    /// The sealed item stored under `itemName`, or nil when none is.
    private func sealedItem(named itemName: String) throws -> Data? {
        try database.read { db in
            try Data.fetchOne(db.cachedStatement(sql: SQLiteCryptTable.select), arguments: [storedNamespace, itemName])
        }
    }

    /// Checks that the namespace's stored header still opens with `sealer`'s key: after an item was not found (an item
    /// sealed under a new master key must not read as "not stored"), and before a count.
    ///
    /// - Throws: `CryptStoreError.masterKeyRotated(path:)`.
    private func checkKeyAgainstStoredHeader(_ sealer: SecretSealer) throws {
        try sealer.checkKey(
            against: database.read { db in try SQLiteCryptTable.header(of: storedNamespace, in: db) },
            location: location
        )
    }

    /// The sealer of the namespace's header, preparing the store first when needed.
    ///
    /// - Throws: A `CryptStoreError` of the master key or the header, or the failure of the database as it is.
    func sealer() throws -> SecretSealer {
        try sealerSlot.sealer { [self] in
            // A namespace whose header is there in a table of this version's shape opens without writing, so that a
            // store's first read never waits for another connection's write.
            if let header = try? existingHeader() {
                return try SecretSealer(masterKey: masterKey, header: header, location: location)
            }
            if let header = try exchangeHeader(offering: nil) {
                return try SecretSealer(masterKey: masterKey, header: header, location: location)
            }
            let created = try SecretSealer(newHeaderFor: masterKey, location: location)
            // Never replaces a header: a concurrent store's header wins, and this one opens it.
            let agreed = try exchangeHeader(offering: created.header)
            if agreed == created.header { return created }
            guard let agreed else { throw CryptStoreError.headerRowMissing(location: location) }
            return try SecretSealer(masterKey: masterKey, header: agreed, location: location)
        }
    }

    /// The sealer of the namespace's header for a read: ``sealer()``'s, or on a read-only database the sealer of the
    /// header it holds, read without writing, and nil while it holds none (nor any secret).
    ///
    /// - Throws: What ``sealer()`` throws.
    private func openedSealer() throws -> SecretSealer? {
        guard database.isReadOnly else { return try sealer() }
        return try sealerSlot.existingSealer { [self] in
            let header = try database.snapshot { db -> Data? in
                guard try SQLiteCryptTable.check(db, path: database.path) else { return nil }
                if let header = try SQLiteCryptTable.header(of: storedNamespace, in: db) { return header }
                let hasItems = try Bool.fetchOne(
                    db.cachedStatement(sql: SQLiteCryptTable.hasItems),
                    arguments: [storedNamespace]
                )
                if hasItems == true { throw CryptStoreError.headerRowMissing(location: location) }
                return nil
            }
            return try header.map { try SecretSealer(masterKey: masterKey, header: $0, location: location) }
        }
    }

    /// The namespace's header, read without writing; nil when the table or the header is missing.
    ///
    /// - Throws: ``SchemaProblem`` for a table of another shape or version, or the failure of the database.
    private func existingHeader() throws -> Data? {
        try database.snapshot { db in
            guard try SQLiteCryptTable.check(db, path: database.path) else { return nil }
            return try SQLiteCryptTable.header(of: storedNamespace, in: db)
        }
    }

    /// In one write transaction: creates or checks the table, then returns the namespace's header; when it has none,
    /// writes `offered` as its header and returns it, unless the namespace holds items (whose header is gone): then nil.
    private func exchangeHeader(offering offered: Data?) throws -> Data? {
        try database.write(durability, changing: nil) { db in
            try SQLiteCryptTable.prepare(db, path: database.path)
            let header = try SQLiteCryptTable.header(of: storedNamespace, in: db)
            guard header == nil, let offered else { return header }
            let hasItems =
                try Bool.fetchOne(
                    db.cachedStatement(sql: SQLiteCryptTable.hasItems),
                    arguments: [storedNamespace]
                ) ?? false
            guard !hasItems else { return nil }
            try db.cachedStatement(sql: SQLiteCryptTable.insertIfMissing)
                .execute(arguments: [storedNamespace, SQLiteCryptTable.headerItem, offered])
            return offered
        }
    }

    /// Runs `body`, throwing any failure but a `CryptStoreError` as `operation`'s error.
    func perform<Result>(_ operation: Operation, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw failure(operation)(error)
        }
    }

    /// The error of `operation` for a failure: a `CryptStoreError` as it is, any other with its reason.
    private func failure(_ operation: Operation) -> (any Error) -> any Error {
        { [path = database.path] error in
            error as? CryptStoreError ?? operation.error(FailureReason(sqlite: error, path: path))
        }
    }

    /// A store operation, as its errors name it.
    enum Operation {
        case read(String)
        case write(String)
        case remove(String)
        case list
        case removeAll
        /// A rotation of the master key, whose failures name the namespace.
        case rotate(location: String)

        /// The operation's error for a failure of `reason`.
        func error(_ reason: FailureReason) -> CryptStoreError {
            switch self {
            case .read(let key): .readFailed(key: key, underlying: reason)
            case .write(let key): .writeFailed(key: key, underlying: reason)
            case .remove(let key): .removeFailed(key: key, underlying: reason)
            case .list: .listFailed(underlying: reason)
            case .removeAll: .removeAllFailed(underlying: reason)
            case .rotate(let location): .openFailed(path: location, underlying: reason)
            }
        }
    }
}
