// forgestorage-testing.md, "KeyValueTests.swift"
import Testing
import ForgeKVStore

struct KeyValueTests {
    let store = InMemoryKVStore()

    @Test func getReturnsNilWhenNotSet() {
        let key = KVKey<Int>("taskCount")
        #expect(store.get(key) == nil)
    }

    @Test func setAndGet() throws {
        let key = KVKey<String>("projectName")
        try store.set(key, value: "TaskFlow v2")
        #expect(store.get(key) == "TaskFlow v2")
    }

    @Test func removeResetsToNil() throws {
        let key = KVKey<Bool>("isActive")
        try store.set(key, value: true)
        try store.remove(key)
        #expect(store.get(key) == nil)
    }

    @Test func containsTracksExistence() throws {
        let key = KVKey<Int>("priority")
        #expect(!store.contains(key))
        try store.set(key, value: 42)
        #expect(store.contains(key))
    }

    @Test func removeAllClearsEverything() throws {
        let key1 = KVKey<Int>("a")
        let key2 = KVKey<String>("b")
        try store.set(key1, value: 1)
        try store.set(key2, value: "hello")
        try store.removeAll()
        #expect(store.get(key1) == nil)
        #expect(store.get(key2) == nil)
    }
}
