internal import ForgeCrypt
internal import Synchronization

/// The sealer a ``PostgresCrypt`` opened with its namespace's header, once its preparation succeeded; shared by
/// copies of the store.
final class SealerSlot: Sendable {
    /// The sealer, nil until the first preparation succeeds.
    private let sealer = Mutex<SecretSealer?>(nil)

    /// The sealer, or nil before the first preparation succeeded.
    var current: SecretSealer? {
        sealer.withLock { $0 }
    }

    /// Keeps `opened` as the store's sealer.
    func keep(_ opened: SecretSealer) {
        sealer.withLock { $0 = opened }
    }
}
