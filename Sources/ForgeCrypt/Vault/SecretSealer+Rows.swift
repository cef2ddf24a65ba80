public import Foundation

// The flow of a secret store that keeps sealed items as rows of a table, beside a header row (`SQLiteCrypt`,
// `PostgresCrypt`): which rows a key's secret may be in and how the rows found open, how a listing reads the keys,
// what a header found refuses, and how a rotation reseals the rows. Each such store keeps its SQL and a short driver.

extension SecretSealer {
    /// A place a key's secret may be stored: the item's name, and how to open what is found there.
    public struct Lookup: Sendable {
        /// The item looked for.
        public let item: Item
        /// The sealer that opens it: this sealer, or during a rotation in phases the old key's.
        let sealer: SecretSealer

        /// The name of the item's row.
        public var name: String { item.name }

        /// The secret sealed in `sealed`, found under ``name``.
        ///
        /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming the key when the item fails to authenticate.
        public func open(_ sealed: Data) throws(CryptStoreError) -> Data {
            try sealer.open(sealed, as: item)
        }
    }

    /// Where `key`'s secret may be stored, in the order to look: this sealer's item, then, while a rotation in phases
    /// is under way and this sealer has its new key, the old key's item.
    ///
    /// A store reads the rows of these names; the first one found is the secret. When none is, it checks the header
    /// with ``checkKey(against:location:)``, so that a store whose vault moved to another key is told so.
    public func lookups(for key: String) -> [Lookup] {
        [Lookup(item: item(for: key), sealer: self)]
            + [oldKeySealer.map { Lookup(item: $0.item(for: key), sealer: $0) }].compactMap { $0 }
    }

    /// The keys sealed in `rows` (item name, sealed bytes), each once, in the rows' order.
    ///
    /// Rows whose name is not an item's (the header row) are skipped; during a rotation in phases, an item of the old
    /// key is opened with it, and listed once beside its copy.
    ///
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming the item of a row that fails to authenticate.
    public func keys(in rows: some Sequence<(String, Data)>) throws(CryptStoreError) -> [String] {
        let old = oldKeySealer
        var keys: [String] = []
        var listed = Set<String>()
        for (itemName, sealed) in rows where Self.isItemName(itemName) {
            let key: String?
            if let old, (try? self.key(inSealedItem: sealed, named: itemName)) == nil {
                key = try old.key(inSealedItem: sealed, named: itemName)
            } else {
                key = try self.key(inSealedItem: sealed, named: itemName)
            }
            if let key, listed.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    /// Throws unless `header`, read back before a write, is this sealer's own settled header.
    ///
    /// - Throws: What ``HeaderMatch/refusal(location:)`` gives for the header, naming `location`.
    public func checkWrite(on header: Data, location: String) throws(CryptStoreError) {
        let found = match(header: header)
        if found != .same { throw found.refusal(location: location) }
    }

    /// Throws when `header` (nil: none was found) records that the vault moved to another master key: checked after
    /// an item was not found, so that a store on the old key is told rather than answered "not stored".
    ///
    /// - Throws: ``CryptStoreError/masterKeyRotated(path:)`` naming `location`.
    public func checkKey(against header: Data?, location: String) throws(CryptStoreError) {
        if let header, match(header: header) == .rotated { throw .masterKeyRotated(path: location) }
    }
}

extension SecretSealer.HeaderMatch {
    /// The error of a write or a rotation that found a header that is this to the store's sealer, naming `location`:
    /// ``CryptStoreError/masterKeyRotated(path:)`` for ``rotated``, ``CryptStoreError/vaultReplaced(path:)`` for
    /// ``otherVault``, else ``CryptStoreError/rotationInProgress(path:)`` (for ``same``, a header that changed since
    /// it was read: another store began or ended a rotation).
    public func refusal(location: String) -> CryptStoreError {
        switch self {
        case .same, .rotating: .rotationInProgress(path: location)
        case .rotated: .masterKeyRotated(path: location)
        case .otherVault: .vaultReplaced(path: location)
        }
    }
}

extension SecretSealer.Rotation {
    /// An item sealed again under the new key: stored under `newName`, in place of the row `oldName`.
    public struct ResealedItem: Sendable {
        /// The item's name under the old key.
        public let oldName: String
        /// The item's name under the new key.
        public let newName: String
        /// The item, sealed under the new key.
        public let sealed: Data
    }

    /// The rows of `rows` (item name, sealed bytes) sealed again under the new key, and the rows to remove first.
    ///
    /// Rows whose name is not an item's are skipped, and so are items of the new key already. The rows to remove are
    /// the items of a rotation this one replaces (``replacesPendingRotation``), which neither key opens here.
    ///
    /// - Throws: What ``reseal(_:named:)`` throws for an item that does not open (nothing is to be changed then).
    public func reseal(
        rows: some Sequence<(String, Data)>
    ) throws(CryptStoreError) -> (resealed: [ResealedItem], dropped: [String]) {
        var resealed: [ResealedItem] = []
        var dropped: [String] = []
        for (itemName, sealed) in rows where SecretSealer.isItemName(itemName) {
            do {
                if let new = try reseal(sealed, named: itemName) {
                    resealed.append(ResealedItem(oldName: itemName, newName: new.name, sealed: new.item))
                }
            } catch {
                guard replacesPendingRotation else { throw error }
                dropped.append(itemName)
            }
        }
        return (resealed, dropped)
    }

    /// Throws unless `header`, read in the rotation's transaction (nil: none was found), is `expected`, the header the
    /// rotation was planned from.
    ///
    /// - Throws: ``CryptStoreError/vaultReplaced(path:)`` when the header is gone or another vault's, else what
    ///   ``SecretSealer/HeaderMatch/refusal(location:)`` gives for it, naming `location`.
    public func checkStart(header: Data?, expected: Data, location: String) throws(CryptStoreError) {
        guard let header else { throw .vaultReplaced(path: location) }
        if header != expected { throw oldSealer.match(header: header).refusal(location: location) }
    }
}

extension SecretSealer {
    /// The next rotation on the way of this sealer's items to `newKey`: the rotation in phases it was opened with the
    /// new key of, when there is one, else the rotation to `newKey`; nil when `newKey` is the key and nothing is under
    /// way.
    ///
    /// A store applies it, then asks the new sealer for the next one, until there is none:
    ///
    /// ```swift
    /// var sealer = openedSealer
    /// while let rotation = try sealer.nextRotation(to: newKey, location: location) {
    ///     try apply(rotation, from: sealer.header)   // checkStart, reseal(rows:), the finished header
    ///     sealer = rotation.newSealer
    /// }
    /// ```
    ///
    /// - Throws: What ``rotation(to:location:)`` throws.
    public func nextRotation(to newKey: MasterKey, location: String) throws(CryptStoreError) -> Rotation? {
        if let pending = pendingRotation { return pending }
        return try rotation(to: newKey, location: location)
    }
}

extension CryptStoreError {
    /// The error of a table's namespace whose header row is missing while it holds items, naming `location`.
    public static func headerRowMissing(location: String) -> CryptStoreError {
        .corruptVault(
            path: location,
            reason: "its header row is missing, so the secrets stored in it cannot be opened; put the header back "
                + "from a backup, or delete the namespace's rows to start again"
        )
    }

    /// Whether a rotation to a master key that failed with this error may have been done before: the old key no
    /// longer opens the store, so the rotation is run again on a store opened with the new key, which has nothing
    /// left to do when it was.
    public var mayMeanRotationWasDone: Bool {
        switch self {
        case .wrongMasterKey, .masterKeyRotated, .keyFileNotFound: true
        default: false
        }
    }
}
