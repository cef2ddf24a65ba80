internal import ForgeCore
internal import Foundation

extension EncryptedFileCrypt {
    /// The keys that hold a secret in this vault, each in its canonical (NFC) form, as ``CryptStoring/keys()`` lists
    /// them sorted.
    ///
    /// No key name is on disk in the clear: each item seals its key's name beside the secret, so listing reads
    /// and opens every item, and checks that the name sealed in it is the one its file is named after. Another
    /// store on the same folder, in any process, lists the same keys. Files that are not items (the header,
    /// temporary files of a running or crashed write, anything else put in the folder) are left out, as the rest
    /// of the vault leaves them; so is a symbolic link with an item's name. A vault folder that no longer exists
    /// holds no keys.
    ///
    /// > Important: Items written by versions before key names were sealed in them (item format 1) cannot be
    /// > listed: only the keyed hash of their name is on disk, and it cannot be turned back into the name. They
    /// > still read, and each becomes listable when its key is next set. To make every such item listable, set
    /// > again the keys your app knows, for example once after an update:
    /// > `if let token = try secrets.get(AuthKeys.accessToken) { try secrets.set(token, for: AuthKeys.accessToken) }`.
    /// > ``itemCount()`` counts them meanwhile.
    ///
    /// While the master key is being changed, an item may be in the folder twice, under each key: a store opened with
    /// the new key lists each key once, and one opened with the old key lists the old key's items (it cannot open the
    /// new key's, and skips them).
    ///
    /// - Returns: The keys, in the order of the folder's listing.
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming the item's file when an item fails to
    ///   authenticate or holds another key's name (the files are left as they are),
    ///   ``CryptStoreError/vaultReplaced(path:)`` when the folder now holds another vault, or
    ///   ``CryptStoreError/listFailed(underlying:)`` when the folder or an item cannot be read.
    public func storedNames() throws -> [String] {
        let vault = vault
        let rotation: VaultRotation?
        do {
            // A stale store never lists, or calls tampered, the items of a vault created since in its folder.
            rotation = try vault.checkHeader()
        } catch {
            guard case .openFailed(_, let reason) = error else { throw error }
            throw CryptStoreError.listFailed(underlying: reason)
        }
        let folder = vault.folder
        let entries: [FolderEntry]
        do {
            entries = try folder.list()
        } catch {
            throw CryptStoreError(listing: error)
        }
        let oldKeys = rotation == nil ? nil : vault.sealer.oldKey?.keys
        var keys: [String] = []
        var listed = Set<String>()
        for entry in entries where Self.isItemFile(entry) {
            let file: Data
            do {
                file = try folder.read(entry.name)
            } catch  where error.isNotFound || error.isSymbolicLink {
                // Removed, or replaced by a link, since the listing: not an item.
                continue
            } catch {
                throw CryptStoreError(listing: error)
            }
            var found = vault.keys.listedItem(file, fileName: entry.name)
            if found == .tampered, let oldKeys {
                // During a rotation, opened with the new key: an item not resealed yet, or already (then listed once).
                found = oldKeys.listedItem(file, fileName: entry.name)
            } else if found == .tampered, rotation != nil {
                // During a rotation, opened with the old key: the new key's items are not this store's to open.
                continue
            }
            switch found {
            case .named(let key): if listed.insert(key).inserted { keys.append(key) }
            case .unnamed: continue
            case .tampered: throw CryptStoreError.tamperedItem(key: entry.name)
            }
        }
        return keys
    }
}
