import ForgeStorage
import Foundation
import TaskFlow

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
