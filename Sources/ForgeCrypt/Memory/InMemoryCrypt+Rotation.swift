internal import ForgeCore
internal import Foundation

extension InMemoryCrypt: MasterKeyRotating {
    /// Changes the master key this twin stands for to `newKey`, telling `progress` the steps a vault of the same
    /// secrets tells, and returns this store; the secrets are kept as they are, since the twin seals nothing.
    ///
    /// As ``EncryptedFileCrypt/rotateMasterKey(to:progress:)`` does, it refuses a key a vault refuses, and a store that
    /// already has `newKey` changes nothing and tells only ``MasterKeyRotationStep/finished``.
    ///
    /// A twin made with a test's faults (ForgeStorageTesting's `InMemoryCrypt(label:faults:log:)`) logs the rotation
    /// and fails it as they say, before anything changes, as a store seen through the seam does.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for an empty passphrase or a symmetric key shorter than
    ///   128 bits, and what a test's fault throws; nothing changes.
    @discardableResult
    public func rotateMasterKey(
        to newKey: MasterKey,
        progress: (MasterKeyRotationStep) -> Void = { _ in }
    ) throws -> InMemoryCrypt {
        for step in try rotate(to: newKey) { progress(step) }
        return self
    }

    /// Changes the master key to `newKey` and returns the steps a vault of the same secrets tells, in order.
    private func rotate(to newKey: MasterKey) throws -> [MasterKeyRotationStep] {
        // Asked first, as a store seen through the seam asks before the store it wraps validates the key.
        _ = try faults.begin(.rotateMasterKey, nil)
        try newKey.validate()
        if masterKey.withLock({ $0?.isSameKey(as: newKey) ?? false }) { return [.finished] }
        let count = items.withLock { $0.count }
        let resealed = stride(from: 1, through: count, by: 1).map { MasterKeyRotationStep.resealed($0, of: count) }
        masterKey.withLock { $0 = newKey }
        return [.began(itemCount: count)] + resealed + [.switched, .finished]
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

extension InMemoryCrypt: AsyncMasterKeyRotating {
    /// Changes the master key this twin stands for to `newKey`, telling `progress` each step, as
    /// ``rotateMasterKey(to:progress:)-(_,(MasterKeyRotationStep)->Void)`` does: the twin of a server's secret store
    /// (`PostgresCrypt`) for a service that rotates through ``AsyncMasterKeyRotating``.
    ///
    /// - Throws: As the synchronous form does; nothing changes.
    @discardableResult
    public nonisolated(nonsending) func rotateMasterKey(
        to newKey: MasterKey,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void
    ) async throws -> InMemoryCrypt {
        for step in try rotate(to: newKey) { await progress(step) }
        return self
    }
}
