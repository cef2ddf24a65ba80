public import ForgeCrypt
internal import Foundation
internal import GRDB

// Changing the master key of a namespace's secrets, in one transaction: see "Changing the master key" in the
// module's documentation (ForgeSQLite.md) for what readers, writers and a crash see.
extension SQLiteCrypt: MasterKeyRotating {
    /// Seals every secret of this namespace again under `newKey`, in one transaction, and returns the store opened with
    /// it.
    ///
    /// This store and its copies (a store wrapped for events or faults, a service's) go on with `newKey` once it
    /// returns: a server rotates without handing a new instance to every holder of this one. Every other store still
    /// on the old key stops opening the namespace when the transaction commits. The store returned is opened with
    /// `newKey` too. When the namespace already has `newKey` (a rotation run again), nothing is changed.
    ///
    /// Every secret is resealed, the old rows removed and the new header written in one immediate transaction: a crash
    /// at any point leaves the namespace on the old key or the new one. Readers go on with the old key until the
    /// commit; writers wait for it. A namespace whose header records a rotation in phases (the vault's design) is
    /// finished by a store of its new key first.
    ///
    /// ```swift
    /// let secrets = SQLiteCrypt(database: database, namespace: "auth", masterKey: .passphrase(old))
    /// let rotated = try secrets.rotateMasterKey(to: .passphrase(new))
    /// ```
    ///
    /// - Parameters:
    ///   - newKey: The new master key. A key file that does not exist is created, owner-only; a passphrase gets a new
    ///     salt.
    ///   - progress: Told each step, on the calling thread (while the transaction is open: keep it short, and write
    ///     nothing to the database from it, which would wait for this transaction).
    /// - Returns: The store, opened with `newKey`, on the same database, namespace and durability.
    /// - Throws: The `CryptStoreError` of a store that cannot be prepared (a wrong master key for this store, when
    ///   `newKey` does not open the namespace either), `CryptStoreError.invalidMasterKey(reason:)` for a new key that
    ///   cannot be used (or is the one a key-file or symmetric-key namespace already has), the errors of a new key
    ///   file, `CryptStoreError.tamperedItem(key:)` naming the row's `item` when a sealed item opens with neither key,
    ///   `CryptStoreError.masterKeyRotated(path:)` or `CryptStoreError.vaultReplaced(path:)` when the namespace's
    ///   header changed since this store prepared, or `CryptStoreError.openFailed(path:underlying:)` naming the
    ///   namespace when the database fails (`FailureReason.busy` when another connection holds it too long). Nothing
    ///   is changed when it throws.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws -> SQLiteCrypt {
        do {
            return try perform(.rotate(location: location)) {
                try database.refuseWritesIfReadOnly()
                var sealer = try sealer()
                // The rotation in phases this store was opened with the new key of first, then the one to `newKey`.
                while let rotation = try sealer.nextRotation(to: newKey, location: location) {
                    try apply(rotation, from: sealer.header, progress: progress)
                    sealer = rotation.newSealer
                }
                progress(.finished)
                return opened(with: newKey, sealer: sealer)
            }
        } catch let error as CryptStoreError where error.mayMeanRotationWasDone {
            // Done before (this is it run again): the new key opens the namespace, and has nothing to do.
            let store = SQLiteCrypt(database: database, namespace: namespace, masterKey: newKey, durability: durability)
            guard (try? store.sealer()) != nil else { throw error }
            let rotated = try store.rotateMasterKey(to: newKey, progress: progress)
            sealerSlot.keep(try rotated.sealer())
            return rotated
        }
    }

    /// This store's database, namespace and durability, opened with `masterKey`, whose sealer `sealer` is.
    ///
    /// This store and its copies go on with `sealer` too: a holder of this store needs no new instance.
    private func opened(with masterKey: MasterKey, sealer: SecretSealer) -> SQLiteCrypt {
        sealerSlot.keep(sealer)
        let store = SQLiteCrypt(database: database, namespace: namespace, masterKey: masterKey, durability: durability)
        store.sealerSlot.keep(sealer)
        return store
    }

    /// Applies `rotation` in one transaction, when the namespace's header is still `expected`: every item
    /// of the old key resealed under its new name and its old row removed, then the new key's header.
    private func apply(
        _ rotation: SecretSealer.Rotation,
        from expected: Data,
        progress: (MasterKeyRotationStep) -> Void
    ) throws {
        // Alone, on the caller's thread: `progress` is told there.
        try database.write(durability, changing: nil, alone: true) { db in
            try rotation.checkStart(
                header: SQLiteCryptTable.header(of: storedNamespace, in: db),
                expected: expected,
                location: location
            )
            let rows =
                try Row.fetchAll(
                    db.cachedStatement(sql: SQLiteCryptTable.items),
                    arguments: [storedNamespace]
                )
                .map { (try $0.decode(String.self, atIndex: 0), try $0.decode(Data.self, atIndex: 1)) }
            let (resealed, dropped) = try rotation.reseal(rows: rows)
            progress(.began(itemCount: resealed.count))
            let delete = try db.cachedStatement(sql: SQLiteCryptTable.delete)
            let upsert = try db.cachedStatement(sql: SQLiteCryptTable.upsert)
            for itemName in dropped { try delete.execute(arguments: [storedNamespace, itemName]) }
            for (index, item) in resealed.enumerated() {
                try delete.execute(arguments: [storedNamespace, item.oldName])
                try upsert.execute(arguments: [storedNamespace, item.newName, item.sealed])
                progress(.resealed(index + 1, of: resealed.count))
            }
            try upsert.execute(arguments: [storedNamespace, SQLiteCryptTable.headerItem, rotation.finishedHeader])
        }
        progress(.switched)
    }
}
