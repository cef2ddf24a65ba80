import ForgeStorageTesting
import Observation
import Testing

@testable import ForgeKVStore

/// A `KVBinding` of a key with a default: its `value` is never nil, but the stored value or the default, and it
/// follows the key as a binding of a key without one does.
@MainActor
struct KVBindingWithDefaultTests {
    let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)

    /// Observes what `read` reads, runs `change`, and waits until the observation is told of a change; throws
    /// `ChangeTimeout` when none is told within five seconds.
    ///
    /// The binding changes on the main actor, as this function runs, so when it returns the change is made.
    private func change(observing read: () -> Void, by change: () throws -> Void) async throws {
        try await awaitChange(of: "the observed binding", within: .seconds(5), observing: read, after: change)
    }

    @Test func aBindingOfAKeyWithADefaultHoldsAValueThatIsNeverNil() throws {
        let store = InMemoryKVStore()
        let binding: KVBinding<Bool> = KVBinding(onboarding, in: store)
        #expect(binding.value == false)
        #expect(binding.key == "taskflow.onboarding")
        #expect(binding.lastError == nil)

        try store.set(onboarding.withoutDefault, value: true)
        #expect(KVBinding(onboarding, in: store).value == true, "a new binding reads what is stored")
    }

    @Test func settingValueStoresItAndAnotherBindingSeesIt() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let binding = KVBinding(onboarding, in: reactive)
        let other = KVBinding(onboarding, in: reactive)

        try await change(observing: { _ = other.value }, by: { binding.value = true })
        #expect(binding.value == true)
        #expect(other.value == true)
        #expect(reactive.get(onboarding.withoutDefault) == true)
    }

    @Test func storingTheDefaultStoresItAndRemoveMakesItTheDefaultAgain() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let settings: any KVStoring = reactive
        let binding = KVBinding(onboarding, in: reactive)

        binding.value = false
        #expect(settings.contains(onboarding), "the default's own value is stored when set")
        binding.value = true
        try binding.remove()
        #expect(binding.value == false)
        #expect(!settings.contains(onboarding))

        // A write around the binding, then a remove: the binding reads the default back.
        try await change(observing: { _ = binding.value }, by: { try settings.set(onboarding, value: true) })
        #expect(binding.value == true)
        try await change(observing: { _ = binding.value }, by: { try settings.remove(onboarding) })
        #expect(binding.value == false)
        #expect(binding.lastError == nil)
    }

    @Test func aValueThatDoesNotDecodeReadsAsTheDefaultWithDecodingFailed() async throws {
        let reactive = ReactiveKVStore(InMemoryKVStore())
        let count = KVKey<Int>("taskflow.taskCount").withDefault(10)
        try reactive.set(KVKey<String>(count.key), value: "many")
        let binding = KVBinding(count, in: reactive)
        #expect(binding.value == 10)
        guard case .decodingFailed(let key, _) = binding.lastError else {
            Issue.record("lastError is \(String(describing: binding.lastError)), not decodingFailed")
            return
        }
        #expect(key == count.key)

        let write = { try reactive.set(count.withoutDefault, value: 3) }
        try await change(observing: { _ = binding.lastError }, by: write)
        #expect(binding.value == 3)
        #expect(binding.lastError == nil)
    }

    @Test func aFailedRemoveSetsLastErrorAndKeepsTheStoredValue() throws {
        let faults = StoreFaults()
        let store = InMemoryKVStore(faults: faults)
        let binding = KVBinding(onboarding, in: store)
        binding.value = true

        faults.failNext(.delete, at: onboarding.key, with: .permissionDenied)
        #expect(throws: KVStoreError.removeFailed(key: onboarding.key, underlying: .permissionDenied)) {
            try binding.remove()
        }
        #expect(binding.value == true)
        #expect(binding.lastError == .removeFailed(key: onboarding.key, underlying: .permissionDenied))
    }

    @Test func aBindingOfAKeyWithoutADefaultHoldsAnOptionalAndRemovesTheKeyForNil() throws {
        let store = InMemoryKVStore()
        let binding: KVBinding<Int?> = KVBinding(KVKey<Int>("taskflow.taskCount"), in: store)
        #expect(binding.value == nil)
        binding.value = 2
        #expect(store.get(KVKey<Int>("taskflow.taskCount")) == 2)
        try binding.remove()
        #expect(binding.value == nil)
        #expect(!store.contains(KVKey<Int>("taskflow.taskCount")))
    }
}
