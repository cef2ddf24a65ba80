public import Foundation

extension SecretSealer {
    /// What a sealer derives from one key name to find, seal and open the key's item: its ``name`` and the data each
    /// item is bound to.
    ///
    /// Look it up once per operation with ``SecretSealer/item(for:)`` and hand it on: a store that must know where
    /// the item is (``name``) before it reads or writes it then derives the item once, not once to find the item and
    /// again to seal or open it.
    ///
    /// ```swift
    /// let item = sealer.item(for: "auth.access")
    /// let sealed = try sealer.seal(Data("s3cr3t".utf8), as: item)
    /// save(sealed, as: item.name)
    /// let secret = try sealer.open(load(item.name), as: item)
    /// ```
    public struct Item: Sendable {
        /// The key name, as the caller gave it: what errors name.
        public let key: String
        /// The name, the keyed hash of the key name and the data the vault authenticates with it.
        let vaultItem: VaultItem

        /// The item's name, which it is stored and found under.
        ///
        /// The key name's keyed hash in 64 lowercase hex digits, as ``SecretSealer/itemName(for:)`` gives it.
        public var name: String { vaultItem.hash }
    }

    /// The item of `key`: its name, and what sealing and opening it needs.
    ///
    /// Equal (and canonically equivalent) key names give items of equal names.
    public func item(for key: String) -> Item {
        Item(key: key, vaultItem: keys.item(for: key))
    }

    /// Seals `secret`, the bytes of a secret, as `item`, with the item's key name sealed beside it (for listing), bound
    /// to the item's name.
    ///
    /// Every call uses a new random nonce, so sealing one secret twice gives two different items.
    ///
    /// - Returns: The sealed item, to store under the item's ``Item/name``.
    /// - Throws: ``CryptStoreError/encodingFailed(key:underlying:)`` when the key name is too long for an item, or
    ///   ``CryptStoreError/writeFailed(key:underlying:)`` when the cryptographic library fails; each names the key.
    public func seal(_ secret: Data, as item: Item) throws(CryptStoreError) -> Data {
        do {
            return try keys.seal(secret, as: item.vaultItem)
        } catch let error as CryptStoreError {
            throw error
        } catch {
            throw .writeFailed(key: item.key, underlying: .other(String(describing: error)))
        }
    }

    /// The secret's bytes in `sealed`, stored under the name of `item`.
    ///
    /// - Throws: ``CryptStoreError/tamperedItem(key:)`` naming the item's key when `sealed` fails to authenticate (it
    ///   was changed, sealed under another master key or header, or sealed for another key).
    public func open(_ sealed: Data, as item: Item) throws(CryptStoreError) -> Data {
        guard let secret = keys.open(sealed, as: item.vaultItem) else { throw .tamperedItem(key: item.key) }
        return secret
    }
}
