internal import ForgeCore

/// The sealer a store of sealed rows opened from its header, kept for the store and its copies (`SQLiteCrypt`,
/// `PostgresCrypt`): opened once, by the first call that needs it.
///
/// A store that rotates its master key keeps the new key's sealer here, so every holder of the store goes on with the
/// new key without a new instance.
public final class SealerSlot: Sendable {
    /// The sealer kept, nil until one is opened.
    private let kept = LockedState<SecretSealer?>(nil)
    /// Held by the calls that open the sealer, one at a time, across the opening's I/O (a header read or written, a
    /// passphrase stretched): only the first calls of a store wait on it, so the header is read and the key stretched
    /// once, and every call after takes the sealer kept.
    private let opening = LockedState<Void>(())

    /// An empty slot.
    public init() {}

    /// The sealer kept, or nil before one was opened.
    public var current: SecretSealer? {
        kept.withLock { $0 }
    }

    /// Keeps `sealer` in place of the one kept: the sealer of a rotation's new key.
    public func keep(_ sealer: SecretSealer) {
        kept.withLock { $0 = sealer }
    }

    /// The sealer kept, or the one `open` opens, then kept.
    ///
    /// Calls that find no sealer open it one at a time, each after the one before, so the header is read and a
    /// passphrase stretched once: a call after the first takes the sealer it kept. A failure keeps nothing, so the
    /// next call tries again. A sealer a rotation kept meanwhile (``keep(_:)``) stays. `open` must not call this slot.
    public func sealer(_ open: () throws -> SecretSealer) rethrows -> SecretSealer {
        if let sealer = current { return sealer }
        return try opening.withLock { _ in
            if let sealer = current { return sealer }
            return keepUnlessKept(try open())
        }
    }

    /// The sealer kept, or the one `find` finds, then kept.
    ///
    /// Nil, and nothing kept, when `find` finds none: a store that may not write a header finds one only once another
    /// store wrote it. `find` must not call this slot.
    public func existingSealer(_ find: () throws -> SecretSealer?) rethrows -> SecretSealer? {
        if let sealer = current { return sealer }
        return try opening.withLock { _ in
            if let sealer = current { return sealer }
            guard let found = try find() else { return nil }
            return keepUnlessKept(found)
        }
    }

    /// Keeps `opened` unless a sealer was kept since the opening began (a rotation's), and returns the sealer kept.
    private func keepUnlessKept(_ opened: SecretSealer) -> SecretSealer {
        kept.withLock { kept in
            if let kept { return kept }
            kept = opened
            return opened
        }
    }
}
