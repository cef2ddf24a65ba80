// forgestorage-testing.md, "TaskFlowSettingsServiceTests.swift", verbatim but for its second import line: the sample
// imports the app module that holds `TaskFlowSettingsService` (`@testable import TaskFlow`), which is this target here,
// so that line is replaced by the import of the library module the app would bring (`InMemoryKVStore`).
import ForgeKVStore

// forgestorage-testing.md, "TaskFlowSettingsServiceTests.swift"
// Test — inject InMemoryKVStore
import Testing
// @testable import TaskFlow

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
    }

    @Test func resetClearsAllData() throws {
        try service.completeOnboarding()
        try service.reset()
        #expect(!service.hasCompletedOnboarding)
    }
}
