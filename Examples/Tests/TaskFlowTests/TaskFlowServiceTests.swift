import ForgeStorage
import Foundation
import Testing

@testable import TaskFlow

struct TaskFlowServiceTests {
    let prefs = InMemoryKVStore()
    let files = InMemoryFileStore()
    let keychain = InMemoryCrypt()
    let service: TaskFlowService

    init() {
        service = TaskFlowService(preferences: prefs, files: files, keychain: keychain)
    }

    @Test func loginStoresAllData() async throws {
        try await service.login(token: "abc", avatar: Data("img".utf8))

        #expect(try keychain.get(AuthKeys.accessToken) == "abc")
        #expect(try await files.load(TaskFlowService.avatarPath) == Data("img".utf8))
        #expect(prefs.get(TaskKeys.onboarding) == true)
        #expect(try service.isLoggedIn())
    }

    @Test func logoutClearsAllData() async throws {
        try await service.login(token: "abc", avatar: Data("img".utf8))
        try await service.logout()

        #expect(try keychain.get(AuthKeys.accessToken) == nil)
        #expect(!files.exists(TaskFlowService.avatarPath))
        #expect(!prefs.contains(TaskKeys.onboarding))
        #expect(try !service.isLoggedIn())
    }

    @Test func loginAgainReplacesTheTokenAndAvatar() async throws {
        try await service.login(token: "old", avatar: Data("a".utf8))
        try await service.login(token: "new", avatar: Data("bb".utf8))

        #expect(try keychain.get(AuthKeys.accessToken) == "new")
        #expect(try await files.load(TaskFlowService.avatarPath) == Data("bb".utf8))
    }

    @Test func logoutWhenSignedOutSucceeds() async throws {
        try await service.logout()
        #expect(try !service.isLoggedIn())
    }
}
