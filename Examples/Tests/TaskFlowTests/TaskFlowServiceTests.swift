import ForgeStorage
import Foundation
import Testing

@testable import TaskFlow

/// The login service, unchanged, on every kind of stores.
struct TaskFlowServiceTests {
    /// Runs `body` with the service over fresh stores of `kind`, and the stores.
    private func withService(
        _ kind: TaskFlowStoreKind,
        _ body: (TaskFlowService, TaskFlowStores) async throws -> Void
    ) async throws {
        try await kind.withStores { stores in
            try await body(
                TaskFlowService(preferences: stores.preferences, files: stores.files, keychain: stores.keychain),
                stores
            )
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func loginStoresAllData(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, stores in
            try await service.login(token: "abc", avatar: Data("img".utf8))

            #expect(try stores.keychain.get(AuthKeys.accessToken) == "abc")
            #expect(try await stores.files.load(TaskFlowService.avatarPath) == Data("img".utf8))
            #expect(stores.preferences.get(TaskKeys.onboarding) == true)
            #expect(try service.isLoggedIn())
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func logoutClearsAllData(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, stores in
            try await service.login(token: "abc", avatar: Data("img".utf8))
            try await service.logout()

            #expect(try stores.keychain.get(AuthKeys.accessToken) == nil)
            #expect(!stores.files.exists(TaskFlowService.avatarPath))
            #expect(!stores.preferences.contains(TaskKeys.onboarding))
            #expect(try !service.isLoggedIn())
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func loginAgainReplacesTheTokenAndAvatar(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, stores in
            try await service.login(token: "old", avatar: Data("a".utf8))
            try await service.login(token: "new", avatar: Data("bb".utf8))

            #expect(try stores.keychain.get(AuthKeys.accessToken) == "new")
            #expect(try await stores.files.load(TaskFlowService.avatarPath) == Data("bb".utf8))
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func logoutWhenSignedOutSucceeds(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, _ in
            try await service.logout()
            #expect(try !service.isLoggedIn())
        }
    }
}
