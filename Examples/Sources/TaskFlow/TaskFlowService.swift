public import ForgeStorage
internal import Foundation

/// TaskFlow's account flow over three stores, written against the protocols only.
///
/// Logging in keeps the token in the secret store, the avatar in the file store and the onboarding flag
/// in the settings; logging out clears all three. Tests inject `InMemoryKVStore`, `InMemoryFileStore` and
/// `InMemoryCrypt`; the `forge demo` command runs it on the disk stores.
public final class TaskFlowService: Sendable {
    /// Where the signed-in user's avatar is saved in the file store.
    public static let avatarPath = "avatars/current.jpg"

    private let preferences: any KVStoring
    private let files: any FileStoring
    private let keychain: any CryptStoring

    /// Creates the service over the three stores.
    ///
    /// - Parameters:
    ///   - preferences: The settings store.
    ///   - files: The file store for the avatar.
    ///   - keychain: The secret store for the access token.
    public init(preferences: any KVStoring, files: any FileStoring, keychain: any CryptStoring) {
        self.preferences = preferences
        self.files = files
        self.keychain = keychain
    }

    /// Whether a user is signed in: the secret store holds an access token.
    ///
    /// - Throws: `CryptStoreError` when the secret store cannot tell.
    public func isLoggedIn() throws -> Bool {
        try keychain.contains(AuthKeys.accessToken)
    }

    /// What ``launch()`` finds.
    public enum Session: Sendable, Equatable {
        /// A token is stored: the user is signed in.
        case loggedIn
        /// No token is stored: the user is signed out, and what a session left behind is cleared.
        case loggedOut
        /// The secret store cannot be read until the device is unlocked: ask again later, sign nobody out.
        case waitingForUnlock
    }

    /// Signs a user in: stores the token, the avatar and the onboarding flag.
    ///
    /// A login that fails half-way removes what it stored before rethrowing, so a failed login (a full
    /// disk, say) never leaves a token without its avatar.
    ///
    /// - Parameters:
    ///   - token: The access token to keep secret.
    ///   - avatar: The user's picture.
    /// - Throws: The error of the first store that fails.
    public func login(token: String, avatar: Data) async throws {
        try keychain.set(token, for: AuthKeys.accessToken)
        var savedAvatar = false
        do {
            try await files.save(avatar, to: Self.avatarPath)
            savedAvatar = true
            try preferences.set(TaskKeys.onboarding, value: true)
        } catch {
            if savedAvatar { try? await files.delete(Self.avatarPath) }
            try? keychain.delete(AuthKeys.accessToken)
            throw error
        }
    }

    /// Signs the user out: removes every secret, file and setting of the three stores.
    ///
    /// - Throws: The error of the first store that fails.
    public func logout() async throws {
        try keychain.deleteAll()
        try await files.deleteAll()
        try preferences.removeAll()
    }

    /// Finds out at launch whether the user is signed in.
    ///
    /// No token means signed out, and clears what is left. A locked device is not a sign-out: the token is
    /// there, just not readable yet.
    ///
    /// - Throws: The error of a store that fails for another reason.
    public func launch() async throws -> Session {
        do {
            guard try keychain.get(AuthKeys.accessToken) != nil else {
                try await logout()
                return .loggedOut
            }
            return .loggedIn
        } catch CryptStoreError.notAccessibleNow {
            return .waitingForUnlock
        }
    }
}
