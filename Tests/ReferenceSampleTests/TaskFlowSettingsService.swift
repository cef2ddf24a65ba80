// The reference's service sample (forgestorage-testing.md, "TaskFlowSettingsService.swift"); its test is in
// TaskFlowSettingsServiceTests.swift.
import ForgeKVStore

// forgestorage-testing.md, "TaskFlowSettingsService.swift"
// Production code — depends on protocol
final class TaskFlowSettingsService {
    private let store: KVStoring

    init(store: KVStoring) {
        self.store = store
    }

    var hasCompletedOnboarding: Bool {
        store.get(TaskKeys.onboarding) ?? false
    }

    func completeOnboarding() throws {
        try store.set(TaskKeys.onboarding, value: true)
    }

    func reset() throws {
        try store.removeAll()
    }
}
