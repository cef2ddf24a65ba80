/// A secret store whose secrets are sealed under a master key it changes in place: ``EncryptedFileCrypt``,
/// `SQLiteCrypt`, ``InMemoryCrypt``, and any of them seen through the seam (`reportingEvents(label:to:)`,
/// `injectingFaults(_:log:label:)`).
///
/// A service that rotates its secrets' key takes this protocol, and its tests pass it the in-memory twin:
///
/// ```swift
/// func rotate(_ secrets: some CryptStoring & MasterKeyRotating, to newKey: MasterKey) throws {
///     try secrets.rotateMasterKey(to: newKey) { step in print(step) }
/// }
/// ```
///
/// ``AsyncMasterKeyRotating`` is the asynchronous form (`PostgresCrypt`, and `InMemoryCrypt` as its twin).
/// `RotationConformance` (ForgeStorageTesting) checks what every rotating store promises.
public protocol MasterKeyRotating: Sendable {
    /// Seals every secret again under `newKey`, telling `progress` each step, and returns this store, which goes on
    /// with `newKey`, as do its copies and every store seen through the seam over it: no holder needs a new instance.
    ///
    /// A store that already has `newKey` changes nothing and tells `progress` only ``MasterKeyRotationStep/finished``;
    /// an interrupted rotation is finished first.
    ///
    /// - Throws: ``CryptStoreError/invalidMasterKey(reason:)`` for a key that cannot be used, and the store's own
    ///   errors; see each store's `rotateMasterKey(to:progress:)`.
    @discardableResult
    func rotateMasterKey(to newKey: MasterKey, progress: (MasterKeyRotationStep) -> Void) throws -> Self
}
