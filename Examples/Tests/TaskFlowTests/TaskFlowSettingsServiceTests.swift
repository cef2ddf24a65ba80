import ForgeStorage
import Testing

@testable import TaskFlow

/// The settings service, unchanged, on every kind of key-value store.
struct TaskFlowSettingsServiceTests {
    /// Runs `body` with the service over a fresh key-value store of `kind`, and the store.
    private func withService(
        _ kind: TaskFlowStoreKind,
        _ body: (TaskFlowSettingsService, any KVStoring) throws -> Void
    ) async throws {
        try await kind.withStores { stores in
            try body(TaskFlowSettingsService(store: stores.preferences), stores.preferences)
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func defaultOnboardingState(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, _ in
            #expect(!service.hasCompletedOnboarding)
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func completeOnboarding(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, store in
            try service.completeOnboarding()
            #expect(service.hasCompletedOnboarding)
            #expect(store.get(TaskKeys.onboarding) == true)
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func recordLaunchCountsUpFromZero(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, store throws in
            #expect(service.launchCount == 0)
            #expect(try service.recordLaunch() == 1)
            #expect(try service.recordLaunch() == 2)
            #expect(store.get(TaskKeys.launchCount) == 2)
        }
    }

    @Test(arguments: TaskFlowStoreKind.available)
    func resetClearsAllData(kind: TaskFlowStoreKind) async throws {
        try await withService(kind) { service, _ in
            try service.completeOnboarding()
            try service.recordLaunch()
            try service.reset()
            #expect(!service.hasCompletedOnboarding)
            #expect(service.launchCount == 0)
        }
    }
}
