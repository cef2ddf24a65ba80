import ForgeKVStore
import Testing

/// `KVKeyWithDefault`: a key and the value reads return while it holds none, made either way, naming the same stored
/// value as the key without its default.
struct KVKeyWithDefaultTests {
    enum TaskKeys {
        static let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        static let taskCount = KVKey<Int>("taskflow.taskCount").withDefault(0)
        static let theme = KVKeyWithDefault("taskflow.theme", default: "light", migrations: .renamed(from: "theme"))
    }

    @Test func bothFormsKeepTheNameTheMigrationsAndTheDefault() {
        #expect(TaskKeys.onboarding.key == "taskflow.onboarding")
        #expect(TaskKeys.onboarding.defaultValue == false)
        #expect(TaskKeys.onboarding.withoutDefault == KVKey<Bool>("taskflow.onboarding"))
        #expect(TaskKeys.taskCount.key == "taskflow.taskCount")
        #expect(TaskKeys.taskCount.defaultValue == 0)
        #expect(TaskKeys.theme.withoutDefault.storedNames == ["taskflow.theme", "theme"])

        let migrated = KVKey<String>("taskflow.theme", migrations: .renamed(from: "theme")).withDefault("dark")
        #expect(migrated.withoutDefault.storedNames == ["taskflow.theme", "theme"])
        #expect(migrated.defaultValue == "dark")
    }

    @Test func aKeyAndItsDefaultedFormReadAndWriteOneValue() throws {
        let store: any KVStoring = InMemoryKVStore()
        let plain = KVKey<Int>("taskflow.taskCount")
        #expect(store.get(TaskKeys.taskCount) == 0)
        #expect(store.get(plain) == nil)
        try store.set(plain, value: 4)
        #expect(store.get(TaskKeys.taskCount) == 4)
        try store.set(TaskKeys.taskCount, value: 5)
        #expect(store.get(plain) == 5)
        try store.remove(TaskKeys.taskCount)
        #expect(!store.contains(plain))
    }

    @Test func aKeyWithAMigrationReadsTheOlderNameBeforeItsDefault() throws {
        let store: any KVStoring = InMemoryKVStore()
        #expect(store.get(TaskKeys.theme) == "light")
        try store.set(KVKey<String>("theme"), value: "dark")
        #expect(store.get(TaskKeys.theme) == "dark")
        #expect(store.contains(TaskKeys.theme))
    }

    @Test func itsDescriptionNamesTheTypeTheKeyAndTheDefault() {
        #expect(TaskKeys.onboarding.description == "KVKeyWithDefault<Bool>(\"taskflow.onboarding\", default: false)")
        #expect(TaskKeys.theme.description == "KVKeyWithDefault<String>(\"taskflow.theme\", default: \"light\")")
    }

    /// A store that is both `KVStoring` and `AsyncKVStoring` meets the asynchronous requirements with its synchronous
    /// methods, so an `async` function reads a key with a default without `await`, as it reads a key without one;
    /// the same store seen as `AsyncKVStoring` reads the same value.
    @Test func aStoreOfBothProtocolsReadsWithoutAwaitInAnAsyncFunction() async throws {
        let store = InMemoryKVStore()
        try store.set(TaskKeys.onboarding, value: true)
        let done = store.get(TaskKeys.onboarding)
        #expect(done)
        #expect(store.get(TaskKeys.onboarding) == true)
        #expect(store.contains(TaskKeys.onboarding))
        #expect(try store.value(for: TaskKeys.onboarding) == true)
        try store.remove(TaskKeys.onboarding)
        #expect(store.get(TaskKeys.onboarding) == false)

        let server: any AsyncKVStoring = store
        try await server.set(TaskKeys.taskCount, value: 3)
        #expect(try await server.get(TaskKeys.taskCount) == 3)
        #expect(store.get(TaskKeys.taskCount) == 3)
    }
}
