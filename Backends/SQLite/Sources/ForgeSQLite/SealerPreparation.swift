internal import ForgeCrypt

/// The sealer of a ``SQLiteCrypt``'s namespace, made once and shared by the copies of the store.
///
/// A preparation that fails keeps nothing, so the next call tries again (a busy database, a key file put back).
final class SealerPreparation: Sendable {
    /// The sealer, once made.
    private let sealer = Locked<SecretSealer?>(nil)
    /// Held while the sealer is made, so that it is made once; never held once it is made.
    private let preparing = Locked<Void>(())

    /// The sealer: the one kept, else the one `make` returns, kept for later calls.
    func sealer(_ make: () throws -> SecretSealer) throws -> SecretSealer {
        if let sealer = sealer.withLock({ $0 }) { return sealer }
        // Held across `make`'s I/O (and a passphrase's stretching) by the first calls only, so that the header is read
        // and the key stretched once: every call after takes the sealer above.
        return try preparing.withLock { _ in
            if let sealer = sealer.withLock({ $0 }) { return sealer }
            let made = try make()
            sealer.withLock { $0 = made }
            return made
        }
    }

    /// Keeps `sealer`, made elsewhere (by a rotation), for every later call.
    func keep(_ made: SecretSealer) {
        sealer.withLock { $0 = made }
    }

    /// The sealer: the one kept, else the one `find` returns, kept for later calls; nil when `find` finds none (a
    /// read-only store whose namespace has no header yet), which the next call looks for again.
    func existingSealer(_ find: () throws -> SecretSealer?) throws -> SecretSealer? {
        if let sealer = sealer.withLock({ $0 }) { return sealer }
        return try preparing.withLock { _ in
            if let sealer = sealer.withLock({ $0 }) { return sealer }
            guard let found = try find() else { return nil }
            sealer.withLock { $0 = found }
            return found
        }
    }
}
