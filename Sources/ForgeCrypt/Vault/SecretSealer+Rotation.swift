internal import ForgeCore
public import Foundation

// Changing the master key of the items a sealer seals: the checks of a header a store writes on, the rotation's
// plan, and the resealing of one item.

extension SecretSealer {
    /// What a header read back from where it is stored is to a sealer: see ``match(header:)``.
    public enum HeaderMatch: Sendable, Hashable {
        /// The sealer's own settled header: the store may write.
        case same
        /// A rotation of the sealer's master key is under way, from it or to it: every item still opens with this
        /// sealer (through ``SecretSealer/oldKeySealer`` for the items the new key has not resealed yet), and writes
        /// wait until the rotation ends (``CryptStoreError/rotationInProgress(path:)``).
        case rotating
        /// The same vault, whose master key is now another: this sealer's key no longer opens it
        /// (``CryptStoreError/masterKeyRotated(path:)``).
        case rotated
        /// Another vault's header, or not a header (``CryptStoreError/vaultReplaced(path:)``).
        case otherVault
    }

    /// What `header`, read back from where it is stored, is to this sealer: its own settled header, a rotation of its
    /// master key under way, the same vault on another master key, or another vault.
    ///
    /// A store checks it before it writes (``isSameVault(asHeader:)``), and when an item it looks for is missing: a
    /// store whose vault has moved to another master key must not read "not stored" where the item is sealed under
    /// the new key.
    public func match(header: Data) -> HeaderMatch {
        if header == self.header && vaultHeader.rotation == nil { return .same }
        guard let found = try? JSONCodec.decode(VaultHeader.self, from: header), found.vaultID == vaultHeader.vaultID
        else { return .otherVault }
        guard let rotation = found.rotation else { return found.keyCheck == keyCheck ? .same : .rotated }
        switch rotation.phase {
        case .resealing:
            // The old key reads its items, all there; the new key reads them through the old key it knows.
            if found.keyCheck == keyCheck { return .rotating }
            return rotation.keyCheck == keyCheck && oldKey != nil ? .rotating : .rotated
        case .retiring:
            return found.keyCheck == keyCheck ? .rotating : .rotated
        }
    }

    /// The sealer of the old master key of the rotation this sealer's header records, when this sealer was opened with
    /// its new key; nil otherwise.
    ///
    /// Until the rotation switches, some items are still sealed under the old key only: a store reads an item it
    /// does not find under this sealer's ``item(for:)`` under the old sealer's.
    ///
    /// ```swift
    /// var item = sealer.item(for: key)
    /// var sealed = try load(item.name)
    /// if sealed == nil, let old = sealer.oldKeySealer {
    ///     item = old.item(for: key)
    ///     sealed = try load(item.name)
    /// }
    /// return try sealed.map { try (sealer.oldKeySealer ?? sealer).open($0, as: item) }
    /// ```
    public var oldKeySealer: SecretSealer? {
        guard let oldKey, let rotation = vaultHeader.rotation else { return nil }
        let record = rotation.phase == .resealing ? vaultHeader.primaryKey : rotation.otherKey
        return SecretSealer(
            header: header,
            vaultHeader: vaultHeader,
            keys: oldKey.keys,
            masterKeyBytes: oldKey.bytes,
            keyCheck: record.keyCheck,
            oldKey: nil
        )
    }

    /// The header of this sealer's vault settled on its own master key: what a store restores where its header was
    /// removed.
    ///
    /// The sealer's ``header`` when it records no rotation.
    var settledHeader: Data {
        guard vaultHeader.rotation != nil else { return header }
        return (try? Self.encode(vaultHeader.settled(on: ownKey), location: "")) ?? header
    }

    /// The header's record of this sealer's master key.
    var ownKey: VaultKeyRecord {
        guard let rotation = vaultHeader.rotation, rotation.keyCheck == keyCheck else { return vaultHeader.primaryKey }
        return rotation.otherKey
    }
}

// MARK: Rotations

extension SecretSealer {
    /// A change of the master key that items are sealed under, from a sealer's key to a new one: what to store, in
    /// which order, and how each item is sealed again.
    ///
    /// A store gets one from ``SecretSealer/rotation(to:location:)`` (or ``SecretSealer/pendingRotation`` to finish an
    /// interrupted one) and goes through its phases from ``phase``, each ending in one header it stores:
    ///
    /// 1. ``Phase/starting``: store ``resealingHeader(itemCount:)``. Nothing else changed yet; a store that checks
    ///    every item first (for one that does not open, or that ``reseal(_:named:)`` cannot seal again) stops before
    ///    this with nothing changed.
    /// 2. ``Phase/resealing``: for each item, store what ``reseal(_:named:)`` returns beside it (under its new name),
    ///    keeping the old item; make them durable; then store ``retiringHeader(itemCount:)``: the new key is the key.
    /// 3. ``Phase/retiring``: remove each item of the old key (``isResealed(_:named:)`` is false), then store
    ///    ``finishedHeader``.
    ///
    /// A store with transactions can instead do it all in one: reseal each item, remove the old ones and store
    /// ``finishedHeader``, all in one transaction.
    ///
    /// While the header records the rotation, a sealer opens with either key (``SecretSealer/init(masterKey:header:location:)``):
    /// with the old key until the rotation switches, reading its items, which all stay until then; with the new key,
    /// reading the items not resealed yet through ``SecretSealer/oldKeySealer``. Writes wait for the end
    /// (``HeaderMatch/rotating``). A rotation interrupted at any point goes on from the header it left.
    public struct Rotation: Sendable {
        /// Where a rotation stands: the header it starts from.
        public enum Phase: Sendable, Hashable {
            /// Nothing is stored yet: the header is the old key's (or records a rotation to another key that has not
            /// switched, which this one replaces: see ``Rotation/replacesPendingRotation``).
            case starting
            /// The header records the rotation; items are being sealed again under the new key.
            case resealing
            /// The header is the new key's; the old key's items are being removed.
            case retiring
        }

        /// Where this rotation stands.
        public let phase: Phase
        /// The sealer of the old master key, on its settled header: it opens the items not resealed yet.
        public let oldSealer: SecretSealer
        /// The sealer of the new master key, on its settled header, ``finishedHeader``.
        public let newSealer: SecretSealer
        /// How many items the header recorded when the rotation began; nil while it is ``Phase/starting``.
        public let recordedItemCount: Int?
        /// Whether the header records a rotation of the old key to another new key, which has not switched: starting
        /// this one replaces it, and the items that rotation sealed under its new key are to be removed (they are the
        /// items that do not open with ``oldSealer``).
        public let replacesPendingRotation: Bool
        /// The old master key sealed under the new one.
        let sealedOldKey: Data

        /// The header of the new key, settled: stored when the old key's items are all removed.
        public var finishedHeader: Data { newSealer.header }

        /// The header that records this rotation while items are resealed: the old key's, and the new key beside it.
        ///
        /// - Parameter itemCount: The number of items the store holds, which the store counts until the rotation ends.
        /// - Returns: The header's bytes.
        /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` should JSON's encoder fail.
        public func resealingHeader(itemCount: Int) throws(CryptStoreError) -> Data {
            var header = oldSealer.vaultHeader
            header.rotation = record(.resealing, other: newSealer.vaultHeader.primaryKey, itemCount: itemCount)
            return try SecretSealer.encode(header, location: "")
        }

        /// The header that records this rotation once every item is resealed: the new key's, the old key beside it.
        ///
        /// - Parameter itemCount: The number of items, as ``resealingHeader(itemCount:)`` recorded it.
        /// - Returns: The header's bytes.
        /// - Throws: ``CryptStoreError/openFailed(path:underlying:)`` should JSON's encoder fail.
        public func retiringHeader(itemCount: Int) throws(CryptStoreError) -> Data {
            var header = newSealer.vaultHeader
            header.rotation = record(.retiring, other: oldSealer.vaultHeader.primaryKey, itemCount: itemCount)
            return try SecretSealer.encode(header, location: "")
        }

        private func record(_ phase: VaultRotation.Phase, other: VaultKeyRecord, itemCount: Int) -> VaultRotation {
            VaultRotation(
                phase: phase,
                masterKey: other.kind,
                passphrase: other.passphrase,
                keyCheck: other.keyCheck,
                sealedOldKey: sealedOldKey,
                itemCount: itemCount
            )
        }

        /// The item `item`, stored under `itemName`, sealed again under the new key; nil when it already is one.
        ///
        /// - Returns: The new item's name, under which to store it (beside the old item until the rotation retires
        ///   it), and its sealed bytes; nil when `item` is an item of the new key already.
        /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming `itemName` when the item opens with neither key,
        ///   or ``CryptStoreError/encodingFailed(key:underlying:)`` for an item of the vault's first format, which
        ///   holds no key name to name its new item by.
        public func reseal(_ item: Data, named itemName: String) throws(CryptStoreError) -> (name: String, item: Data)?
        {
            let fileName = itemName + VaultKeys.itemExtension
            if let (key, secret) = oldSealer.keys.namedItem(item, fileName: fileName) {
                let newItem = newSealer.item(for: key)
                return (newItem.name, try newSealer.seal(secret, as: newItem))
            }
            if newSealer.keys.namedItem(item, fileName: fileName) != nil { return nil }
            if item.first == VaultKeys.legacyItemFormat {
                throw .encodingFailed(
                    key: itemName,
                    underlying: "the item was written before key names were sealed in items, so it cannot be named "
                        + "under a new master key: set its key again, then rotate"
                )
            }
            throw .tamperedItem(key: itemName)
        }

        /// Whether `item`, stored under `itemName`, is an item of the new key that opens.
        public func isResealed(_ item: Data, named itemName: String) -> Bool {
            newSealer.keys.namedItem(item, fileName: itemName + VaultKeys.itemExtension) != nil
        }

        /// Whether `item`, stored under `itemName`, is an item of the old key that opens.
        public func isOldItem(_ item: Data, named itemName: String) -> Bool {
            oldSealer.keys.namedItem(item, fileName: itemName + VaultKeys.itemExtension) != nil
        }
    }

    /// The rotation of this sealer's items to `newKey`: a new one, or the one its header records.
    ///
    /// ```swift
    /// if let rotation = try sealer.rotation(to: .passphrase(newPassphrase), location: location) {
    ///     // Go through its phases from rotation.phase (see Rotation).
    /// }
    /// ```
    ///
    /// A new key file is created (owner-only) when it does not exist; a new passphrase gets a new salt.
    ///
    /// - Parameters:
    ///   - newKey: The master key to seal the items under.
    ///   - location: Where the items are kept, for errors.
    /// - Returns: The rotation, or nil when `newKey` is this sealer's key and no rotation is under way: nothing to do.
    /// - Throws: ``CryptStoreError/rotationInProgress(path:)`` when the header records a rotation to another key that
    ///   this sealer cannot finish or replace (it was opened with that rotation's new key: finish it with
    ///   ``pendingRotation`` first); ``CryptStoreError/invalidMasterKey(reason:)`` or the errors of a new key file.
    public func rotation(to newKey: MasterKey, location: String) throws(CryptStoreError) -> Rotation? {
        try newKey.validate()
        if let pending = pendingRotation {
            // Opened with the new key of the rotation under way: only that rotation can go on.
            guard try isKey(newKey, of: ownKey, location: location) else { throw .rotationInProgress(path: location) }
            return pending
        }
        var replacesPendingRotation = false
        if let recorded = vaultHeader.rotation {
            // Opened with the old key, while resealing: the rotation goes on to its new key, or is replaced.
            if try isKey(newKey, of: recorded.otherKey, location: location) {
                let bytes = try newKey.keyBytes(for: recorded.otherKey, vaultPath: location)
                let newKeys = VaultKeys(masterKey: bytes, vaultID: vaultHeader.vaultID)
                return Rotation(
                    phase: .resealing,
                    oldSealer: try settledSealer(),
                    newSealer: try SecretSealer(
                        settled: vaultHeader.settled(on: recorded.otherKey),
                        keys: newKeys,
                        masterKeyBytes: bytes,
                        location: location
                    ),
                    recordedItemCount: recorded.itemCount,
                    replacesPendingRotation: false,
                    sealedOldKey: recorded.sealedOldKey
                )
            }
            replacesPendingRotation = true
        } else if try isKey(newKey, of: ownKey, location: location) {
            return nil
        }
        let (bytes, passphrase) = try newKey.keyForNewVault(vaultPath: location)
        let newKeys = VaultKeys(masterKey: bytes, vaultID: vaultHeader.vaultID)
        let newRecord = VaultKeyRecord(kind: newKey.kind, passphrase: passphrase, keyCheck: newKeys.keyCheck)
        guard newRecord.keyCheck != keyCheck else {
            // A passphrase's new salt never gives the old key; a key file or key that does is the same key.
            throw .invalidMasterKey(reason: "the new master key is the one the vault has")
        }
        let sealedOldKey: Data
        do {
            sealedOldKey = try VaultRotation.seal(
                masterKeyBytes,
                under: bytes,
                vaultID: vaultHeader.vaultID,
                oldKeyCheck: keyCheck,
                newKeyCheck: newRecord.keyCheck
            )
        } catch {
            throw .openFailed(path: location, underlying: .other(String(describing: error)))
        }
        return Rotation(
            phase: .starting,
            oldSealer: try settledSealer(),
            newSealer: try SecretSealer(
                settled: vaultHeader.settled(on: newRecord),
                keys: newKeys,
                masterKeyBytes: bytes,
                location: location
            ),
            recordedItemCount: nil,
            replacesPendingRotation: replacesPendingRotation,
            sealedOldKey: sealedOldKey
        )
    }

    /// The rotation the header records, when this sealer was opened with its new key: the one it can finish.
    ///
    /// Nil when the header records none, or this sealer has its old key.
    public var pendingRotation: Rotation? {
        guard let rotation = vaultHeader.rotation, let oldSealer = oldKeySealer else { return nil }
        let (oldRecord, newRecord) =
            rotation.phase == .resealing
            ? (vaultHeader.primaryKey, rotation.otherKey) : (rotation.otherKey, vaultHeader.primaryKey)
        return Rotation(
            phase: rotation.phase == .resealing ? .resealing : .retiring,
            oldSealer: oldSealer.resettled(on: oldRecord),
            newSealer: resettled(on: newRecord),
            recordedItemCount: rotation.itemCount,
            replacesPendingRotation: false,
            sealedOldKey: rotation.sealedOldKey
        )
    }

    /// This sealer on its own settled header.
    private func settledSealer() throws(CryptStoreError) -> SecretSealer {
        try SecretSealer(
            settled: vaultHeader.settled(on: ownKey),
            keys: keys,
            masterKeyBytes: masterKeyBytes,
            location: ""
        )
    }

    /// This sealer's keys on the settled header of `record`, which is their key's.
    private func resettled(on record: VaultKeyRecord) -> SecretSealer {
        let settled = vaultHeader.settled(on: record)
        return SecretSealer(
            header: (try? Self.encode(settled, location: "")) ?? header,
            vaultHeader: settled,
            keys: keys,
            masterKeyBytes: masterKeyBytes,
            keyCheck: record.keyCheck,
            oldKey: nil
        )
    }

    /// Whether `key` is the master key `record` describes, in this sealer's vault.
    private func isKey(_ key: MasterKey, of record: VaultKeyRecord, location: String) throws(CryptStoreError) -> Bool {
        let bytes: SymmetricKey
        do {
            bytes = try key.keyBytes(for: record, vaultPath: location)
        } catch .wrongMasterKey {
            return false
        } catch .keyFileNotFound {
            // A key file that does not exist yet is a new key.
            return false
        }
        return VaultKeys(masterKey: bytes, vaultID: vaultHeader.vaultID).matches(keyCheck: record.keyCheck)
    }
}
