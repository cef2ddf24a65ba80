// forgestorage-kvstore.md's samples of the stores (UserDefaultsKVStore.swift, DiskKVStore.swift, FileProtection.swift,
// InMemoryKVStore.swift, ReactiveKVStore.swift, stream.swift), run: the disk stores' samples only make stores, which
// touches no file, and the one that writes (ReactiveKVStore.swift) removes what it wrote.
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Scaffolding: the view model the reference's "InMemoryKVStore.swift" makes (`TaskFlowViewModel(store:)`) and whose
/// method "stream.swift" shows ("In a SwiftUI ViewModel"), neither of which declares it.
@MainActor
final class TaskFlowViewModel {
    let reactive: ReactiveKVStore
    var showOnboarding = true

    init(store: any KVStoring) {
        reactive = ReactiveKVStore(store)
    }

    // forgestorage-kvstore.md, "stream.swift" (its second part; the first is in
    // `KVStoreSampleTests.streamEmitsTheCurrentValueThenEachChange`)
    // In a SwiftUI ViewModel
    func observeOnboarding() {
        Task {
            for await isDone in reactive.stream(TaskKeys.onboarding) {
                await MainActor.run {
                    self.showOnboarding = !(isDone ?? false)
                }
            }
        }
    }
}

struct KVStoreSampleTests {
    @Test func userDefaultsKVStoreUsesTheStandardDefaultsASuiteOrTheInstanceGiven() throws {
        let myDefaults = try #require(UserDefaults(suiteName: "forge.reference.\(UUID().uuidString)"))

        // forgestorage-kvstore.md, "UserDefaultsKVStore.swift"
        // Standard UserDefaults
        let store = UserDefaultsKVStore()

        // App group suite (for widgets, extensions)
        let sharedStore = UserDefaultsKVStore(suiteName: "group.com.taskflow.shared")

        // Pre-existing UserDefaults instance
        let custom = UserDefaultsKVStore(defaults: myDefaults)

        #expect(store.defaults === UserDefaults.standard)
        #expect(sharedStore.domainName == "group.com.taskflow.shared")
        #expect(sharedStore.defaults !== UserDefaults.standard)
        #expect(custom.defaults === myDefaults)
    }

    @Test func diskKVStoreKeepsEachKeyInAJSONFileOfItsNamespace() throws {
        // forgestorage-kvstore.md, "DiskKVStore.swift"
        let store = DiskKVStore(
            directory: .applicationSupport,
            namespace: "taskflow-settings",
            fileProtection: .complete  // Encrypted when device locked
        )

        #expect(store.directory == .applicationSupport)
        #expect(store.fileProtection == .complete)
        #expect(store.folderURL.lastPathComponent == "taskflow-settings")
        let file = try #require(store.fileURL(for: TaskKeys.taskCount))
        #expect(file.deletingLastPathComponent().standardizedFileURL == store.folderURL.standardizedFileURL)
        #expect(file.pathExtension == "json")
    }

    @Test func fileProtectionIsSetAtInit() {
        // DIVERGES: `_ =` added before each initializer, whose store the reference leaves unused (a warning).
        // forgestorage-kvstore.md, "FileProtection.swift"
        // Default — accessible after first unlock (good for background tasks)
        _ = DiskKVStore(directory: .applicationSupport, namespace: "taskflow-data")

        // Complete protection — only accessible when device is unlocked
        _ = DiskKVStore(
            directory: .applicationSupport,
            namespace: "taskflow-sensitive",
            fileProtection: .complete
        )

        #expect(
            DiskKVStore(directory: .applicationSupport, namespace: "taskflow-data").fileProtection
                == .completeUntilFirstUserAuthentication
        )
    }

    @Test @MainActor func inMemoryKVStoreStartsEmptyAndKeepsWhatIsSet() throws {
        // forgestorage-kvstore.md, "InMemoryKVStore.swift"
        // In tests
        let store = InMemoryKVStore()
        let viewModel = TaskFlowViewModel(store: store)

        // Assert default state
        #expect(store.get(TaskKeys.taskCount) == nil)

        // Mutate and verify
        try store.set(TaskKeys.taskCount, value: 5)
        #expect(store.get(TaskKeys.taskCount) == 5)

        #expect(viewModel.reactive.get(TaskKeys.taskCount) == 5)
    }

    @Test func reactiveKVStoreIsUsedAsTheStoreItWraps() throws {
        // forgestorage-kvstore.md, "ReactiveKVStore.swift"
        // Wrap any KVStoring in ReactiveKVStore
        let store = UserDefaultsKVStore()
        let reactive = ReactiveKVStore(store)

        // ReactiveKVStore conforms to KVStoring — use it the same way
        try reactive.set(TaskKeys.onboarding, value: true)
        let done = reactive.get(TaskKeys.onboarding)  // Optional(true)

        // The sample writes to the process's own defaults domain: what it wrote is removed again.
        try store.remove(TaskKeys.onboarding)
        try store.flush()
        #expect(done == Optional(true))
    }

    @Test func streamEmitsTheCurrentValueThenEachChange() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        try reactive.set(TaskKeys.taskCount, value: 1)
        let counts = StreamReader(reactive.stream(TaskKeys.taskCount))
        let printing = Task {
            // forgestorage-kvstore.md, "stream.swift" (its first part; the second is
            // `TaskFlowViewModel.observeOnboarding`)
            // Observe a key
            for await value in reactive.stream(TaskKeys.taskCount) {
                print("Task count: \(value ?? 0)")
            }
        }

        try reactive.set(TaskKeys.taskCount, value: 2)
        try reactive.set(TaskKeys.taskCount, value: 2)  // a duplicate: skipped
        try reactive.set(TaskKeys.taskCount, value: 3)
        #expect(await counts.next(3) == [1, 2, 3])

        // The sample's loop ends when its task is cancelled.
        printing.cancel()
        await printing.value
    }

    @Test @MainActor func observeOnboardingFollowsTheStoredFlag() async throws {
        let viewModel = TaskFlowViewModel(store: InMemoryKVStore())
        let flags = StreamReader(viewModel.reactive.stream(TaskKeys.onboarding))
        #expect(await flags.next() == .some(nil))
        viewModel.observeOnboarding()

        try viewModel.reactive.set(TaskKeys.onboarding, value: true)
        #expect(await flags.next() == true)
        // The view model's task runs on the main actor: wait (bounded) for it to apply the change.
        for _ in 0..<1000 where viewModel.showOnboarding {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!viewModel.showOnboarding)
        // The sample's task lives on, waiting for the next change, as it does in an app.
    }
}
