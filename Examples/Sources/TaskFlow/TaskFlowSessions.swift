public import ForgeStorage
internal import Foundation

/// TaskFlow's server side: the sessions of many users, kept in three stores that several server instances may
/// share, written against the asynchronous protocols only.
///
/// A sign-in keeps the user's token in the secret store, their avatar in the file store and the time they signed in
/// in the settings, each under the user's id. A session lasts ``sessionLifetime``: the time it started is stored with
/// that lifetime, so once it ends the user reads as signed out on every server, with nothing to clean up first. The same code runs on the in-memory twins in tests, on the disk stores
/// on one machine, and on network stores (PostgreSQL, in the Backends package) across many: nothing in it changes.
public struct TaskFlowSessions: Sendable {
    private let settings: any AsyncExpiringKVStoring
    private let files: any AsyncFileStoring
    private let secrets: any AsyncCryptStoring
    /// How long a session lasts after its sign-in.
    public let sessionLifetime: Duration

    /// Creates the service over the three stores.
    ///
    /// - Parameters:
    ///   - settings: Where the time each user signed in is kept, with the session's lifetime.
    ///   - files: Where each user's avatar is kept.
    ///   - secrets: Where each user's access token is kept.
    ///   - sessionLifetime: How long a session lasts after its sign-in. Defaults to 30 days.
    public init(
        settings: any AsyncExpiringKVStoring,
        files: any AsyncFileStoring,
        secrets: any AsyncCryptStoring,
        sessionLifetime: Duration = .seconds(30 * 86_400)
    ) {
        self.settings = settings
        self.files = files
        self.secrets = secrets
        self.sessionLifetime = sessionLifetime
    }

    /// The key of the time `user` signed in.
    public static func signedInKey(of user: String) -> KVKey<Date> { KVKey("sessions.\(user).signedInAt") }
    /// The key of `user`'s access token.
    public static func tokenKey(of user: String) -> CryptKey<String> { CryptKey(key: "sessions.\(user).token") }
    /// The path of `user`'s avatar.
    public static func avatarPath(of user: String) -> String { "avatars/\(user).jpg" }

    /// Signs `user` in: stores the avatar, the time and, last, the token, which marks the user signed in.
    ///
    /// A sign-in that fails signs nobody in and nobody out: the token is written last, so a user already signed in
    /// keeps their token, and an avatar this call added is removed again.
    ///
    /// - Throws: The error of the first store that fails.
    public func signIn(_ user: String, token: String, avatar: Data, at date: Date) async throws {
        let hadAvatar = try await files.exists(Self.avatarPath(of: user))
        do {
            try await files.save(avatar, to: Self.avatarPath(of: user), overwrite: true)
            try await settings.set(Self.signedInKey(of: user), value: date, expiresAfter: sessionLifetime)
            try await secrets.set(token, for: Self.tokenKey(of: user))
        } catch {
            if !hadAvatar { try? await files.delete(Self.avatarPath(of: user)) }
            throw error
        }
    }

    /// When `user` signed in, or nil when they are signed out or their session has ended.
    ///
    /// - Throws: The error of a store that cannot be read.
    public func signedIn(_ user: String) async throws -> Date? {
        guard try await secrets.contains(Self.tokenKey(of: user)) else { return nil }
        return try await settings.value(for: Self.signedInKey(of: user))
    }

    /// The ids of the users signed in whose session has not ended, sorted.
    ///
    /// - Throws: The error of a store that cannot be listed.
    public func signedInUsers() async throws -> [String] {
        let live = Set(try await settings.keys())
        return try await secrets.keys()
            .compactMap { key in
                guard key.hasPrefix("sessions."), key.hasSuffix(".token") else { return nil }
                let user = String(key.dropFirst("sessions.".count).dropLast(".token".count))
                return live.contains(Self.signedInKey(of: user).key) ? user : nil
            }
    }

    /// Signs `user` out: removes their token, avatar and time; other users' sessions stay.
    ///
    /// Signing out a user who is signed out, or whom another server signs out at the same moment, succeeds.
    ///
    /// - Throws: The error of the first store that fails.
    public func signOut(_ user: String) async throws {
        try await secrets.delete(Self.tokenKey(of: user))
        do {
            try await files.delete(Self.avatarPath(of: user))
        } catch FileStoreError.notFound {
            // Never saved, or removed by another server's sign-out.
        }
        try await settings.remove(Self.signedInKey(of: user))
    }
}
