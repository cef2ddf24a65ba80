internal import ForgeCore
internal import Foundation

extension InMemoryCrypt: MasterKeyRotating {
    /// Changes the master key this twin stands for to `newKey`, telling `progress` the steps a vault of the same
    /// secrets tells, and returns this store; the secrets are kept as they are, since the twin seals nothing.
    ///
    /// As ``EncryptedFileCrypt/rotateMasterKey(to:progress:)`` does, it refuses a key a vault refuses, and a store that
    /// already has `newKey` changes nothing and tells only ``MasterKeyRotationStep/finished``.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for an empty passphrase or a symmetric key shorter than
    ///   128 bits; nothing changes.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws(CryptStoreError) -> InMemoryCrypt {
        try newKey.validate()
        if masterKey.withLock({ $0?.isSameKey(as: newKey) ?? false }) {
            progress(.finished)
            return self
        }
        let count = items.withLock { $0.count }
        progress(.began(itemCount: count))
        for done in stride(from: 1, through: count, by: 1) { progress(.resealed(done, of: count)) }
        masterKey.withLock { $0 = newKey }
        progress(.switched)
        progress(.finished)
        return self
    }
}

extension MasterKey {
    /// Whether this is the key `other` is: the same passphrase, the same key bytes, or the same key file.
    fileprivate func isSameKey(as other: MasterKey) -> Bool {
        switch (self, other) {
        case (.passphrase(let one), .passphrase(let another)): one == another
        case (.symmetric(let one), .symmetric(let another)): one == another
        case (.keyFile(let one), .keyFile(let another)):
            one.standardizedFileURL.path == another.standardizedFileURL.path
        default: false
        }
    }
}
