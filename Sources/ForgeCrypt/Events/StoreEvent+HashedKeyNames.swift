public import ForgeCore
internal import Foundation

extension StoreEvent.KeyNames {
    /// Events name each key or path by its HMAC-SHA256 under a key made at random once per process: `hmac:` and the
    /// first 12 bytes of the code in hex (`hmac:3f9a0c…`, 24 digits).
    ///
    /// The same name shows the same text for as long as the process runs, so the events of one key (one session) can
    /// be followed through a log; another process, or the next run, shows other text. No one can tell a name from its
    /// text, or test a guess against it, without the key, which never leaves the process. Use
    /// ``hashed(key:)`` for text that stays the same across processes.
    ///
    /// ```swift
    /// let sessions = DiskKVStore(namespace: "sessions")
    ///     .reportingEvents(label: "sessions", keyNames: .hashed, to: observability.record)
    /// ```
    public static let hashed = Self.hashed(key: SymmetricKey(size: .bits256))

    /// Events name each key or path by its HMAC-SHA256 under `key`: `hmac:` and the first 12 bytes of the code in
    /// hex.
    ///
    /// Processes given the same key show the same text for a name (the servers of one service, whose logs are read
    /// together). Keep the key as secret as the names: with it, a guess at a name can be tested.
    ///
    /// - Parameter key: The key of the HMAC; 256 bits is right.
    /// - Returns: Key names shown by their HMAC under `key`.
    public static func hashed(key: SymmetricKey) -> Self {
        .replaced { name in
            let code = CryptoPrimitives.authenticationCode(for: Data(name.utf8), using: key)
            let digits = code.prefix(12).map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0f, radix: 16) }
            return "hmac:" + digits.joined()
        }
    }
}
