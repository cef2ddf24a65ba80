import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// `rawJSON(forKey:)`, written once on the backend contract, shows what every store holds under a key.
struct KVBackendRawJSONTests {
    @Test func theInMemoryStoreShowsTheJSONItKeeps() throws {
        let store = InMemoryKVStore()
        try store.set(KVKey<[String]>("tags"), value: ["a/b", "c"])

        #expect(store.rawJSON(forKey: "tags") == Data(#"["a/b","c"]"#.utf8))
        #expect(store.rawJSON(forKey: "missing") == nil)
    }

    @Test func userDefaultsShowsItsNativeValuesAsJSON() throws {
        let suite = "forge.tests.rawjson.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = UserDefaultsKVStore(suiteName: suite)
        try store.set(KVKey<Int>("count"), value: 5)
        try store.set(KVKey<[String: Int]>("sizes"), value: ["a": 1])

        #expect(store.rawJSON(forKey: "count") == Data("5".utf8))
        #expect(store.rawJSON(forKey: "sizes") == Data(#"{"a":1}"#.utf8))
        #expect(store.rawJSON(forKey: "missing") == nil)
    }
}
