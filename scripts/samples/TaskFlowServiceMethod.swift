// One method of the "Testing failure paths" article's TaskFlowService, in the service it belongs to.
import ForgeStorage
import Foundation

enum TaskKeys {
    static let onboarding = KVKey<Bool>("taskflow.onboarding")
}

enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}

enum Session {
    case loggedIn, loggedOut, waitingForUnlock
}

final class TaskFlowService: Sendable {
    private let preferences: any KVStoring
    private let files: any FileStoring
    private let keychain: any CryptStoring

    init(preferences: any KVStoring, files: any FileStoring, keychain: any CryptStoring) {
        self.preferences = preferences
        self.files = files
        self.keychain = keychain
    }

    func logout() async throws {
        try keychain.deleteAll()
        try await files.deleteAll()
        try preferences.removeAll()
    }

    // sample
}
