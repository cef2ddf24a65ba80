internal import ForgeCore
internal import Foundation

// Changing the master key of a vault folder, under the folder's exclusive lock: the phases of a
// `SecretSealer.Rotation`, each ending in one header written and flushed.

extension OpenedVault {
    /// Moves the vault to `newKey`, or finishes the rotation its header records, while this process holds the
    /// folder's exclusive lock.
    ///
    /// - Returns: The sealer of the new key, on its settled header (the one this vault had when nothing was to do).
    /// - Throws: The ``CryptStoreError`` of ``EncryptedFileCrypt/rotateMasterKey(to:progress:)``.
    func rotate(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void
    ) throws(CryptStoreError) -> SecretSealer {
        let lock: Descriptor
        do {
            lock = try folder.lockExclusively()
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        defer { withExtendedLifetime(lock) {} }
        var current = try sealerOfCurrentHeader(or: newKey)
        if let pending = current.pendingRotation {
            // Opened with the new key of an interrupted rotation: it ends first.
            try run(pending, progress: progress)
            current = pending.newSealer
        }
        guard let rotation = try current.rotation(to: newKey, location: folder.path) else {
            progress(.finished)
            return current
        }
        try run(rotation, progress: progress)
        return rotation.newSealer
    }

    /// The sealer of the header the folder holds now, with this store's key, or else with `newKey` (a rotation to it
    /// that switched, or ended, since this store opened).
    private func sealerOfCurrentHeader(or newKey: MasterKey) throws(CryptStoreError) -> SecretSealer {
        guard let bytes = try Self.readHeader(in: folder) else {
            throw .corruptVault(path: folder.path, reason: "\(VaultHeader.fileName) is missing")
        }
        if bytes == sealer.header { return sealer }
        let decoded = try SecretSealer.decode(bytes, location: folder.path, headerName: VaultHeader.fileName)
        if let current = try? SecretSealer(
            header: bytes,
            decoded: decoded,
            masterKeyBytes: sealer.masterKeyBytes,
            location: folder.path
        ) {
            return current
        }
        if let current = try? SecretSealer(
            masterKey: newKey,
            header: bytes,
            location: folder.path,
            headerName: VaultHeader.fileName
        ) {
            return current
        }
        throw sealer.match(header: bytes) == .otherVault
            ? .vaultReplaced(path: folder.path) : .masterKeyRotated(path: folder.path)
    }

    /// Goes through `rotation`'s phases from where it stands.
    private func run(
        _ rotation: SecretSealer.Rotation,
        progress: (MasterKeyRotationStep) -> Void
    ) throws(CryptStoreError) {
        var itemCount = rotation.recordedItemCount ?? 0
        var phase = rotation.phase
        if phase == .starting {
            itemCount = try start(rotation)
            phase = .resealing
        }
        progress(.began(itemCount: itemCount))
        if phase == .resealing {
            try reseal(rotation, itemCount: itemCount, progress: progress)
            progress(.switched)
        }
        try retire(rotation, itemCount: itemCount, progress: progress)
        progress(.finished)
    }

    /// Checks every item, then writes the header that records the rotation.
    ///
    /// Every item must open with the old key and be one it can reseal: nothing is changed when one is not. The copies of a rotation this one replaces are removed first.
    ///
    /// - Returns: The number of items.
    private func start(_ rotation: SecretSealer.Rotation) throws(CryptStoreError) -> Int {
        var itemCount = 0
        var strays: [String] = []
        for (name, file) in try itemFiles() {
            if rotation.isOldItem(file, named: name) {
                itemCount += 1
            } else if rotation.replacesPendingRotation, file.first != VaultKeys.legacyItemFormat {
                strays.append(name)
            } else {
                // Throws as resealing this item would: it is damaged, or of the first format (which has no name).
                _ = try rotation.reseal(file, named: name)
                throw .tamperedItem(key: name)
            }
        }
        if rotation.replacesPendingRotation {
            // The items of the rotation replaced are told from damaged items by their number.
            let pending = try Self.readHeader(in: folder)
                .flatMap { try? JSONCodec.decode(VaultHeader.self, from: $0) }?
                .rotation
            if let expected = pending?.itemCount, expected != itemCount {
                throw .corruptVault(
                    path: folder.path,
                    reason: "\(itemCount) of the \(expected) items of the rotation under way open with the old key; "
                        + "finish that rotation with its new key"
                )
            }
            try removeItems(strays)
        }
        try writeFlushed(rotation.resealingHeader(itemCount: itemCount))
        return itemCount
    }

    /// Seals every item of the old key again under the new key, beside it; flushes them all, then writes the header
    /// that makes the new key the vault's.
    private func reseal(
        _ rotation: SecretSealer.Rotation,
        itemCount: Int,
        progress: (MasterKeyRotationStep) -> Void
    ) throws(CryptStoreError) {
        // Each copy is flushed once, after all are written: half the flushes of writing each flushed.
        var options = folder.options
        options.durability = .atomic
        let copies = StoreFolder(path: folder.path, options: options)
        var written: [String] = []
        for (name, file) in try itemFiles() {
            guard let resealed = try rotation.reseal(file, named: name) else { continue }
            let fileName = resealed.name + VaultKeys.itemExtension
            do {
                try copies.write(resealed.item, as: fileName)
            } catch {
                throw CryptStoreError(error, writing: fileName)
            }
            written.append(fileName)
            progress(.resealed(written.count, of: itemCount))
        }
        do {
            try folder.synchronize(written)
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        try writeFlushed(rotation.retiringHeader(itemCount: itemCount))
    }

    /// Removes every item of the old key, then writes the new key's settled header.
    private func retire(
        _ rotation: SecretSealer.Rotation,
        itemCount: Int,
        progress: (MasterKeyRotationStep) -> Void
    ) throws(CryptStoreError) {
        let files = try itemFiles()
        let present = Set(files.map(\.name))
        var old: [String] = []
        for (name, file) in files where !rotation.isResealed(file, named: name) {
            guard let (key, _) = rotation.oldSealer.keys.namedItem(file, fileName: name + VaultKeys.itemExtension)
            else {
                throw .tamperedItem(key: name)
            }
            if !present.contains(rotation.newSealer.itemName(for: key)) {
                // An old item without its copy (written by a process that ignores the rotation) is copied first.
                if let resealed = try rotation.reseal(file, named: name) {
                    try writeFlushed(resealed.item, as: resealed.name + VaultKeys.itemExtension)
                }
            }
            old.append(name)
        }
        for (index, name) in old.enumerated() {
            try removeItems([name], flushing: false)
            progress(.retired(index + 1, of: old.count))
        }
        try removeItems([])
        try writeFlushed(rotation.finishedHeader)
    }

    /// The item files of the folder, by item name (without the extension), and their bytes.
    private func itemFiles() throws(CryptStoreError) -> [(name: String, file: Data)] {
        var files: [(name: String, file: Data)] = []
        do {
            for entry in try folder.list() where EncryptedFileCrypt.isItemFile(entry) {
                do {
                    files.append(
                        (String(entry.name.dropLast(VaultKeys.itemExtension.count)), try folder.read(entry.name))
                    )
                } catch  where error.isNotFound || error.isSymbolicLink {
                    continue
                }
            }
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
        return files
    }

    /// Removes the items named `names`, then flushes the folder when `flushing`.
    private func removeItems(_ names: [String], flushing: Bool = true) throws(CryptStoreError) {
        do {
            for name in names {
                do {
                    try folder.remove(name + VaultKeys.itemExtension)
                } catch  where error.isMissing {}
            }
            if flushing { try folder.synchronize([String]()) }
        } catch {
            throw CryptStoreError(error, removing: nil)
        }
    }

    /// Writes `bytes` as the file `name` (the header by default), flushed.
    private func writeFlushed(_ bytes: Data, as name: String = VaultHeader.fileName) throws(CryptStoreError) {
        do {
            try folder.write(bytes, as: name)
        } catch {
            throw CryptStoreError(error, opening: folder.path)
        }
    }
}
