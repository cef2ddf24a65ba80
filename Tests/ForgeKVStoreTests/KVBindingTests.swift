import ForgeCore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Observation
import Testing

@testable import ForgeKVStore

/// `KVBinding`: one key as an observable property, current from the start, following every change its
/// `ReactiveKVStore` sees, writing through to the store.
@MainActor
struct KVBindingTests {
    let key = KVKey<Int>("taskflow.taskCount")

    /// Observes what `read` reads, runs `change`, and returns true once the observation is told of a change; throws
    /// `ChangeTimeout` when none is told within five seconds.
    ///
    /// The binding changes on the main actor, as this function runs, so when it returns the change is made.
    private func observesChange(of read: () -> Void, after change: () throws -> Void) async throws -> Bool {
        try await awaitChange(of: "the observed binding", within: .seconds(5), observing: read, after: change)
        return true
    }

    @Test func valueIsWhatTheStoreHoldsRightAfterInit() throws {
        let store = InMemoryKVStore()
        try store.set(key, value: 3)
        let binding = KVBinding(key, in: store)
        #expect(binding.value == 3)
        #expect(binding.lastError == nil)
        #expect(KVBinding(KVKey<String>("unset"), in: store).value == nil)
    }

    @Test func aWriteThroughTheSharedReactiveStoreChangesValueAndIsObserved() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(key, in: reactive)
        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.set(key, value: 7) }))
        #expect(binding.value == 7)
        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.remove(key) }))
        #expect(binding.value == nil)
    }

    @Test func theConvenienceInitUsesAReactiveStoreItIsGiven() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(key, in: reactive as any KVStoring)
        #expect(binding.store === reactive)
        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.set(key, value: 2) }))
        #expect(binding.value == 2)
    }

    @Test(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform yet"))
    func aWriteOfAnotherDiskStoreOnTheFolderChangesValue() async throws {
        // Made here rather than with `withTemporaryFolder`, whose body is not isolated to the main actor. The
        // watch of a namespace folder also watches its parent, which must exist.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binding = KVBinding(key, in: DiskKVStore(directory: .custom(folder), namespace: "settings"))
        let other = DiskKVStore(directory: .custom(folder), namespace: "settings")
        #expect(binding.value == nil)

        #expect(try await observesChange(of: { _ = binding.value }, after: { try other.set(key, value: 5) }))
        #expect(binding.value == 5)
        #expect(try await observesChange(of: { _ = binding.value }, after: { try other.remove(key) }))
        #expect(binding.value == nil)
    }

    @Test func aBindingOfAKeyWithMigrationsFollowsWritesOfTheOlderName() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let renamed = KVKey<Int>("taskflow.count", migrations: .renamed(from: "taskflow.taskCount"))
        let binding = KVBinding(renamed, in: reactive)
        #expect(binding.value == nil)

        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.set(key, value: 5) }))
        #expect(binding.value == 5)
        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.remove(key) }))
        #expect(binding.value == nil)
    }

    @Test func aBindingOverUserDefaultsFollowsItsNativeValues() async throws {
        let suite = "forge.tests.binding.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let reactive = ReactiveKVStore(UserDefaultsKVStore(suiteName: suite))
        let onboarding = KVKey<Bool>("taskflow.onboarding")
        let binding = KVBinding(onboarding, in: reactive)
        // A Bool is stored as a native Boolean, which the binding's observation reads as JSON.
        #expect(
            try await observesChange(of: { _ = binding.value }, after: { try reactive.set(onboarding, value: true) })
        )
        #expect(binding.value == true)
        #expect(
            try await observesChange(of: { _ = binding.value }, after: { try reactive.set(onboarding, value: false) })
        )
        #expect(binding.value == false)
    }

    @Test func settingValueStoresItAndOtherBindingsOfTheKeySeeIt() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(key, in: reactive)
        let other = KVBinding(key, in: reactive)

        #expect(try await observesChange(of: { _ = other.value }, after: { binding.value = 4 }))
        #expect(binding.value == 4)
        #expect(reactive.get(key) == 4)
        #expect(other.value == 4)

        #expect(try await observesChange(of: { _ = other.value }, after: { binding.value = nil }))
        #expect(!reactive.contains(key))
        #expect(binding.value == nil)
        #expect(other.value == nil)
        #expect(binding.lastError == nil)
    }

    @Test func aBurstOfWritesNeverShowsAnOlderValue() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(key, in: reactive)
        binding.value = 1
        binding.value = 2
        binding.value = 3
        #expect(binding.value == 3)
        // Written around the binding: its stream brings the changes to 1, 2, 3 and 4 after this, and each is read
        // back from the store, which holds 4, so the value goes from 3 to 4 and never back to 1 or 2.
        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.set(key, value: 4) }))
        #expect(binding.value == 4)
    }

    @Test func aFailedWriteSetsLastErrorAndLeavesTheStoredValue() async throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        try store.set(key, value: 1)
        let binding = KVBinding(key, in: store)

        faults.failNext(.write, at: key.key, with: .outOfSpace)
        #expect(try await observesChange(of: { _ = binding.lastError }, after: { binding.value = 2 }))
        #expect(binding.lastError == .writeFailed(key: key.key, underlying: .outOfSpace))
        #expect(binding.value == 1)
        #expect(store.get(key) == 1)

        faults.failNext(.delete, at: key.key, with: .permissionDenied)
        #expect(throws: KVStoreError.removeFailed(key: key.key, underlying: .permissionDenied)) {
            try binding.set(nil)
        }
        #expect(binding.lastError == .removeFailed(key: key.key, underlying: .permissionDenied))
        #expect(binding.value == 1)
        #expect(store.get(key) == 1)

        #expect(try await observesChange(of: { _ = binding.lastError }, after: { binding.value = 3 }))
        #expect(binding.lastError == nil, "a write that succeeds clears the error")
        #expect(binding.value == 3)
        #expect(store.get(key) == 3)
    }

    @Test func aValueThatDoesNotDecodeReadsAsNilWithDecodingFailed() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let asText = KVKey<String>(key.key)
        try reactive.set(asText, value: "many")
        let binding = KVBinding(key, in: reactive)
        #expect(binding.value == nil)
        guard case .decodingFailed(let failedKey, _) = binding.lastError else {
            Issue.record("lastError is \(String(describing: binding.lastError)), not decodingFailed")
            return
        }
        #expect(failedKey == key.key)

        #expect(try await observesChange(of: { _ = binding.value }, after: { try reactive.set(key, value: 8) }))
        #expect(binding.value == 8)
        #expect(binding.lastError == nil)

        #expect(
            try await observesChange(of: { _ = binding.lastError }, after: { try reactive.set(asText, value: "x") })
        )
        #expect(binding.value == nil)
        #expect(binding.lastError?.key == key.key)

        // No value and a value that does not decode both read as nil: the binding is told of the change between them
        // all the same, so its error is never out of date.
        #expect(try await observesChange(of: { _ = binding.lastError }, after: { try reactive.remove(key) }))
        #expect(binding.value == nil)
        #expect(binding.lastError == nil)
        #expect(
            try await observesChange(of: { _ = binding.lastError }, after: { try reactive.set(asText, value: "y") })
        )
        #expect(binding.lastError?.key == key.key)
    }

    @Test func releasingTheBindingEndsItsTaskAndStream() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        var binding: KVBinding<Int?>? = KVBinding(key, in: reactive)
        weak let released = binding
        #expect(reactive.observerCount == 1)

        binding = nil
        #expect(released == nil, "the binding's task does not keep it alive")
        // The cancelled task ends its stream when it next runs: bounded, so a stream that never ends fails the test.
        for _ in 0..<1_000 where reactive.observerCount > 0 {
            await Task.yield()
        }
        #expect(reactive.observerCount == 0)
    }
}
