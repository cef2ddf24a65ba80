import ForgeStorage
import Testing

@testable import TaskFlow

struct TaskFlowSettingsServiceTests {
    let store = InMemoryKVStore()
    let service: TaskFlowSettingsService

    init() {
        service = TaskFlowSettingsService(store: store)
    }

    @Test func defaultOnboardingState() {
        #expect(!service.hasCompletedOnboarding)
    }

    @Test func completeOnboarding() throws {
        try service.completeOnboarding()
        #expect(service.hasCompletedOnboarding)
        #expect(store.get(TaskKeys.onboarding) == true)
    }

    @Test func recordLaunchCountsUpFromZero() throws {
        #expect(service.launchCount == 0)
        #expect(try service.recordLaunch() == 1)
        #expect(try service.recordLaunch() == 2)
        #expect(store.get(TaskKeys.launchCount) == 2)
    }

    @Test func resetClearsAllData() throws {
        try service.completeOnboarding()
        try service.recordLaunch()
        try service.reset()
        #expect(!service.hasCompletedOnboarding)
        #expect(service.launchCount == 0)
    }
}
