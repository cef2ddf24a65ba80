/// A step of a change of master key, as a rotation reports its progress (for example
/// ``EncryptedFileCrypt/rotateMasterKey(to:progress:)``).
///
/// A rotation reports ``began(itemCount:)`` once, then each item it seals again under the new key, the moment the new
/// key becomes the store's key, each item of the old key it removes, and ``finished``. A rotation that continues an
/// interrupted one reports from where it goes on; one with nothing to do (the store already has the new key) reports
/// ``finished`` alone.
///
/// ```swift
/// let secrets = try vault.rotateMasterKey(to: .passphrase(newPassphrase)) { step in
///     if case .resealed(let done, let total) = step { progressBar.value = Double(done) / Double(total) }
/// }
/// ```
public enum MasterKeyRotationStep: Sendable, Hashable {
    /// The rotation began, or went on after an interruption, with this many items.
    case began(itemCount: Int)
    /// The item numbered `done` (from 1) of `total` is sealed under the new key.
    case resealed(Int, of: Int)
    /// The new key is the store's key: from here, only the new key opens it.
    case switched
    /// The old key's item numbered `done` (from 1) of `total` is removed.
    case retired(Int, of: Int)
    /// The rotation is done: the store holds only items of the new key, and records no rotation.
    case finished
}
