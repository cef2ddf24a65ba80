internal import ForgeCrypt
internal import NIOConcurrencyHelpers

/// The sealer a ``PostgresCrypt`` opened with its namespace's header, once its preparation succeeded; shared by
/// copies of the store.
final class SealerSlot: Sendable {
    /// The sealer, nil until the first preparation succeeds.
    private let sealer = NIOLockedValueBox<SecretSealer?>(nil)

    /// The sealer, or nil before the first preparation succeeded.
    var current: SecretSealer? {
        sealer.withLockedValue { $0 }
    }

    /// Keeps `opened` as the store's sealer.
    func keep(_ opened: SecretSealer) {
        sealer.withLockedValue { $0 = opened }
    }
}
