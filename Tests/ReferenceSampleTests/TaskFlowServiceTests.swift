// The sample shows no imports: these are scaffolding. `AuthKeys`, which it names, is in ReferenceKeys.swift.
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import Foundation
import Testing

// forgestorage-testing.md, "TaskFlowServiceTests.swift"
final class TaskFlowService {
    private let preferences: KVStoring
    private let files: FileStoring
    private let keychain: CryptStoring

    init(preferences: KVStoring, files: FileStoring, keychain: CryptStoring) {
        self.preferences = preferences
        self.files = files
        self.keychain = keychain
    }

    func login(token: String, avatar: Data) async throws {
        try keychain.set(token, for: AuthKeys.accessToken)
        try await files.save(avatar, to: "avatars/current.jpg")
        try preferences.set(TaskKeys.onboarding, value: true)
    }

    func logout() async throws {
        try keychain.deleteAll()
        try await files.deleteAll()
        try preferences.removeAll()
    }
}

struct TaskFlowServiceTests {
    let prefs = InMemoryKVStore()
    let files = InMemoryFileStore()
    let keychain = InMemoryCrypt()
    let service: TaskFlowService

    init() {
        service = TaskFlowService(
            preferences: prefs,
            files: files,
            keychain: keychain
        )
    }

    @Test func loginStoresAllData() async throws {
        try await service.login(token: "abc", avatar: Data("img".utf8))

        #expect(try keychain.contains(AuthKeys.accessToken))
        #expect(files.exists("avatars/current.jpg"))
        #expect(prefs.get(TaskKeys.onboarding) == true)
    }

    @Test func logoutClearsAllData() async throws {
        try await service.login(token: "abc", avatar: Data("img".utf8))
        try await service.logout()

        #expect(try keychain.get(AuthKeys.accessToken) == nil)
        #expect(!files.exists("avatars/current.jpg"))
        #expect(prefs.get(TaskKeys.onboarding) == nil)
    }
}
