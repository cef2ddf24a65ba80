import ForgeKVStore
import ForgeTestSupport
import Testing

/// A store written against the reference's five `KVStoring` requirements conforms to the library's protocol, gets the
/// library's typed API, and is wrapped by `ReactiveKVStore`.
struct DictionaryKVStoreTests {
    @Test func conformsToTheLibrarysProtocolAndTheReferences() {
        let store: any KVStoring = DictionaryKVStore()
        let asTheReferenceDeclaresIt: any Reference.KVStoring = DictionaryKVStore()
        #expect(store.get(TaskKeys.taskCount) == nil)
        #expect(!asTheReferenceDeclaresIt.contains(TaskKeys.taskCount))
    }

    @Test func valueForReadsThroughItsGetAndContains() throws {
        let store: any KVStoring = DictionaryKVStore()
        #expect(try store.value(for: TaskKeys.taskCount) == nil)
        try store.set(TaskKeys.taskCount, value: 3)
        #expect(try store.value(for: TaskKeys.taskCount) == 3)
        // A stored nil optional reads as `.some(nil)`, told apart from nothing stored.
        try store.set(TaskKeys.projectName, value: nil)
        #expect(try store.value(for: TaskKeys.projectName) == .some(nil))
    }

    @Test func keysThrowsListFailedWhereTheStoreCannotList() {
        let store: any KVStoring = DictionaryKVStore()
        #expect {
            try store.keys()
        } throws: { error in
            guard case .listFailed = error as? KVStoreError else { return false }
            return true
        }
    }

    @Test func refusesWhatJSONCannotEncodeWithTheReferencesError() throws {
        let store = DictionaryKVStore()
        try store.set(TaskKeys.settings, value: TaskSettings(theme: "dark", fontScale: 1))
        #expect {
            try store.set(TaskKeys.settings, value: TaskSettings(theme: "light", fontScale: .nan))
        } throws: { error in
            guard case .encodingFailed(let key, _) = error as? KVStoreError else { return false }
            return key == TaskKeys.settings.key
        }
        #expect(store.get(TaskKeys.settings) == TaskSettings(theme: "dark", fontScale: 1))
    }

    @Test func reactiveKVStoreWrapsItAndStreamsItsKeys() async throws {
        let reactive = ReactiveKVStore(DictionaryKVStore())
        let counts = StreamReader(reactive.stream(TaskKeys.taskCount))
        #expect(await counts.next() == .some(nil))
        try reactive.set(TaskKeys.taskCount, value: 1)
        try reactive.set(TaskKeys.taskCount, value: 1)
        try reactive.set(TaskKeys.taskCount, value: 2)
        try reactive.remove(TaskKeys.taskCount)
        #expect(await counts.next(3) == [1, 2, nil])
        #expect(reactive.get(TaskKeys.taskCount) == nil)
    }
}
