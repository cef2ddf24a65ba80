/// An asynchronous secret store (a server's, such as `PostgresCrypt`) whose secrets are sealed under a master key it
/// changes in place: ``MasterKeyRotating`` for a store behind a network.
public protocol AsyncMasterKeyRotating: Sendable {
    /// Seals every secret again under `newKey`, telling `progress` each step, and returns this store, which goes on
    /// with `newKey`, as do its copies and every store seen through the seam over it.
    ///
    /// A store that already has `newKey` changes nothing and tells `progress` only ``MasterKeyRotationStep/finished``.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for a key that cannot be used, and the store's own
    ///   errors; see each store's `rotateMasterKey(to:progress:)`.
    @discardableResult
    nonisolated(nonsending) func rotateMasterKey(
        to newKey: MasterKey,
        progress: @escaping @Sendable (MasterKeyRotationStep) async -> Void
    ) async throws -> Self
}
