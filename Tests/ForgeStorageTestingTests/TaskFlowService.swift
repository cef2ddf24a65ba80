import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import Foundation

enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}

enum TaskKeys {
    static let onboarding = KVKey<Bool>("taskflow.onboarding")
}

/// A small TaskFlow-like service, as the "Testing failure paths" article walks through it: login stores a
/// token, an avatar and a flag; logout deletes all three; launch decides whether the user is logged in.
final class TaskFlowService: Sendable {
    static let avatarPath = "avatars/current.jpg"

    /// What launch finds.
    enum Session: Equatable {
        case loggedIn
        case loggedOut
        /// The Keychain cannot be read until the device is unlocked: ask again later, log nobody out.
        case waitingForUnlock
    }

    private let preferences: any KVStoring
    private let files: any FileStoring
    private let keychain: any CryptStoring

    init(preferences: any KVStoring, files: any FileStoring, keychain: any CryptStoring) {
        self.preferences = preferences
        self.files = files
        self.keychain = keychain
    }

    /// Stores the token, the avatar and the onboarding flag; if a step fails, removes what this login
    /// stored, so a failed login leaves nothing half-stored, and rethrows the error.
    func login(token: String, avatar: Data) async throws {
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

    /// Deletes the token, every file and every preference.
    func logout() async throws {
        try keychain.deleteAll()
        try await files.deleteAll()
        try preferences.removeAll()
    }

    /// Finds out at launch whether the user is logged in.
    ///
    /// No token means logged out, and clears what is left; a locked device is not a logout.
    func launch() async throws -> Session {
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

/// The same service written the first way that comes to mind.
///
/// It has no rollback, and treats any read failure at launch as "no token". The walkthrough's tests show
/// what goes wrong with it.
final class NaiveTaskFlowService: Sendable {
    private let preferences: any KVStoring
    private let files: any FileStoring
    private let keychain: any CryptStoring

    init(preferences: any KVStoring, files: any FileStoring, keychain: any CryptStoring) {
        self.preferences = preferences
        self.files = files
        self.keychain = keychain
    }

    func login(token: String, avatar: Data) async throws {
        try keychain.set(token, for: AuthKeys.accessToken)
        try await files.save(avatar, to: TaskFlowService.avatarPath)
        try preferences.set(TaskKeys.onboarding, value: true)
    }

    func launch() async throws -> TaskFlowService.Session {
        if (try? keychain.get(AuthKeys.accessToken)) == nil {
            try keychain.deleteAll()
            try await files.deleteAll()
            try preferences.removeAll()
            return .loggedOut
        }
        return .loggedIn
    }
}
