public import ForgeKVStore
internal import Foundation
public import Vapor

/// A Vapor `SessionDriver` on a ForgeStorage key-value store that keeps lifetimes: each session's data is a value of
/// the store under ``keyPrefix`` followed by the session's identifier, which expires ``lifetime`` after the session's
/// last request.
///
/// Register it with `Application.Sessions.Provider.forge(_:lifetime:keyPrefix:)` and add the sessions middleware:
///
/// ```swift
/// app.sessions.use(.forge(store, lifetime: .seconds(24 * 60 * 60)))
/// app.middleware.use(app.sessions.middleware)
/// ```
///
/// A new session gets 32 random bytes as its identifier (base64url, 43 characters), stored only if no live session
/// has it (`setIfAbsent`), so two servers on one store never hand out one identifier. Each request that uses the
/// session stores its data again with a full ``lifetime`` (a sliding expiry); a session left alone for longer reads as
/// missing, and the client gets a new one. Servers that share the store (one SQLite file, one PostgreSQL database)
/// share the sessions.
///
/// An update is a plain write, as Vapor's own drivers make it: a request that updates a session while another request
/// deletes it (a logout) stores it again, with a full lifetime.
public struct ForgeSessionDriver<Store: AsyncExpiringKVStoring>: Sendable {
    /// The store the sessions live in.
    public let store: Store
    /// How long a session lives after its last request: its lifetime in the store, renewed by every update.
    public let lifetime: Duration
    /// What every session identifier is prefixed with in the store, so that sessions keep apart from the store's
    /// other keys.
    public let keyPrefix: String

    /// One week: how long Vapor's default session cookie (`SessionsConfiguration.default()`) lasts.
    public static var defaultLifetime: Duration { .seconds(7 * 24 * 60 * 60) }

    /// How many random identifiers ``createSession(_:for:)`` tries before it throws.
    static var identifierAttempts: Int { 4 }

    /// Creates a session driver on `store`.
    ///
    /// - Parameters:
    ///   - store: The store the sessions live in; any store that keeps lifetimes.
    ///   - lifetime: How long a session lives after its last request. Defaults to one week, as Vapor's default
    ///     session cookie.
    ///   - keyPrefix: What every session identifier is prefixed with in the store. Defaults to `vapor.session.`.
    public init(store: Store, lifetime: Duration = defaultLifetime, keyPrefix: String = "vapor.session.") {
        self.store = store
        self.lifetime = lifetime
        self.keyPrefix = keyPrefix
    }

    /// The store key of the session `id`.
    func storeKey(_ id: SessionID) -> KVKey<SessionData> {
        KVKey(keyPrefix + id.string)
    }

    /// Whether `text` has the shape of ``makeSessionID()``'s identifiers: 43 characters of base64url.
    static func isSessionID(_ text: String) -> Bool {
        text.utf8.count == 43
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// A new random session identifier: 32 bytes of the system's secure generator, in base64url without padding.
    static func makeSessionID() -> SessionID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64URL = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return SessionID(string: base64URL)
    }
}

extension ForgeSessionDriver: AsyncSessionDriver {
    /// Stores `data` as a new session, under a new random identifier, for ``lifetime``; returns the identifier.
    ///
    /// - Throws: The store's `KVStoreError`, or ``ForgeVaporError/sessionIDsTaken(attempts:)``.
    public func createSession(_ data: SessionData, for request: Request) async throws -> SessionID {
        for _ in 0..<Self.identifierAttempts {
            let id = Self.makeSessionID()
            if try await store.setIfAbsent(storeKey(id), value: data, lifetime: .after(lifetime)) { return id }
        }
        throw ForgeVaporError.sessionIDsTaken(attempts: Self.identifierAttempts)
    }

    /// The data of the session `sessionID`: nil when there is no such session, it has expired, its value is not a
    /// session's, or the identifier is not one this driver makes.
    ///
    /// - Throws: The store's `KVStoreError` when the store cannot be read: a failure is never read as no session, which
    ///   would give the client a new one.
    public func readSession(_ sessionID: SessionID, for request: Request) async throws -> SessionData? {
        // An identifier this driver never makes (a cookie a client wrote) is no session, and costs no read.
        guard Self.isSessionID(sessionID.string) else { return nil }
        do {
            return try await store.value(for: storeKey(sessionID))
        } catch KVStoreError.decodingFailed {
            return nil
        }
    }

    /// Stores `data` as the session `sessionID`'s, for a full ``lifetime`` from now; returns `sessionID`.
    ///
    /// - Throws: The store's `KVStoreError`.
    public func updateSession(
        _ sessionID: SessionID,
        to data: SessionData,
        for request: Request
    ) async throws -> SessionID {
        try await store.set(storeKey(sessionID), value: data, lifetime: .after(lifetime))
        return sessionID
    }

    /// Removes the session `sessionID`.
    ///
    /// - Throws: The store's `KVStoreError`.
    public func deleteSession(_ sessionID: SessionID, for request: Request) async throws {
        try await store.remove(storeKey(sessionID))
    }
}
