internal import ForgeKVStore
internal import Foundation
internal import Testing

/// The checks of values that outlive app versions: `value(for:)` tells missing from unreadable, migrations read
/// what older versions stored, and `keys()` lists what is stored.
extension AsyncKVStoringConformance {
    /// The checks of `value(for:)`, migrations and `keys()`, part of ``checks``.
    static var evolutionChecks: [Check] {
        [
            Check("value(for:) returns nil only when nothing is stored", valueIsNilOnlyWhenNothingIsStored),
            Check(
                "a value that does not decode throws decodingFailed from value(for:), reads as nil and stays stored",
                aValueThatDoesNotDecodeThrowsAndStaysStored
            ),
            Check(
                "a model that changed reads through its migration, and throws decodingFailed without one",
                aChangedModelReadsThroughItsMigration
            ),
            Check(
                "a migration reads an older key name without writing, and remove removes it too",
                aMigrationReadsAnOlderKeyNameWithoutWriting
            ),
            Check("keys lists exactly the keys that hold a value, sorted", keysListsExactlyWhatIsStored),
            Check("keys lists hostile keys as they were given, in canonical form", keysListsHostileKeys),
        ]
    }

    private static func valueIsNilOnlyWhenNothingIsStored(_ store: any AsyncKVStoring) async throws {
        #expect(try await store.value(for: KVKey<Int>("unset")) == nil)
        try await store.set(KVKey<Int>("number"), value: 7)
        #expect(try await store.value(for: KVKey<Int>("number")) == 7)
        try await store.set(KVKey<Int?>("nothing"), value: nil)
        let stored = try await store.value(for: KVKey<Int?>("nothing"))
        #expect(stored == .some(nil), "a stored nil optional reads as .some(nil), not as missing")
        try await store.remove(KVKey<Int>("number"))
        #expect(try await store.value(for: KVKey<Int>("number")) == nil)
    }

    private static func aValueThatDoesNotDecodeThrowsAndStaysStored(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<String>("mood"), value: "sunny")
        await #expect(throws: KVStoreError.self) { try await store.value(for: KVKey<Int>("mood")) }
        do {
            _ = try await store.value(for: KVKey<Int>("mood"))
        } catch let error as KVStoreError {
            guard case .decodingFailed(let key, _) = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(key == "mood")
        }
        #expect(try await store.get(KVKey<Int>("mood")) == nil)
        #expect(try await store.contains(KVKey<Int>("mood")))
        #expect(try await store.value(for: KVKey<String>("mood")) == "sunny")
        #expect(try await store.keys() == ["mood"])
    }

    private static func aChangedModelReadsThroughItsMigration(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<ProfileV1>("profile"), value: ProfileV1(name: "Ada"))
        // Version 2 added a field without a default: the stored value no longer decodes.
        await #expect(throws: KVStoreError.decodingFailed(key: "profile", underlying: "")) {
            do {
                _ = try await store.value(for: KVKey<ProfileV2>("profile"))
            } catch KVStoreError.decodingFailed(let key, _) {
                throw KVStoreError.decodingFailed(key: key, underlying: "")
            }
        }
        #expect(try await store.get(KVKey<ProfileV2>("profile")) == nil)

        let migrated = KVKey<ProfileV2>("profile", migrations: .from(ProfileV1.self) { ProfileV2($0) })
        #expect(try await store.value(for: migrated) == ProfileV2(name: "Ada", age: 0))
        #expect(try await store.get(migrated) == ProfileV2(name: "Ada", age: 0))
        // A write stores the current type, which reads find first from then on.
        try await store.set(migrated, value: ProfileV2(name: "Ada", age: 36))
        #expect(try await store.value(for: migrated) == ProfileV2(name: "Ada", age: 36))
        #expect(try await store.value(for: KVKey<ProfileV2>("profile")) == ProfileV2(name: "Ada", age: 36))
        #expect(try await store.keys() == ["profile"])
    }

    private static func aMigrationReadsAnOlderKeyNameWithoutWriting(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<ProfileV1>("user"), value: ProfileV1(name: "Grace"))
        try await store.set(KVKey<Bool>("darkMode"), value: true)
        let profile = KVKey<ProfileV2>("profile.v2", migrations: .from(ProfileV1.self, key: "user") { ProfileV2($0) })
        let appearance = KVKey<Bool>("appearance.dark", migrations: .renamed(from: "darkMode"))

        #expect(try await store.value(for: profile) == ProfileV2(name: "Grace", age: 0))
        #expect(try await store.value(for: appearance) == true)
        #expect(try await store.contains(profile))
        // Reads never write: the older values stay, for an older version of the app that shares the store.
        #expect(try await store.keys() == ["darkMode", "user"])

        try await store.set(profile, value: ProfileV2(name: "Grace", age: 85))
        #expect(try await store.get(profile) == ProfileV2(name: "Grace", age: 85))
        #expect(try await store.keys() == ["darkMode", "profile.v2", "user"])

        // A removed value is never migrated back: remove takes the older names with it.
        try await store.remove(profile)
        #expect(try await store.value(for: profile) == nil)
        #expect(try await !store.contains(profile))
        #expect(try await store.keys() == ["darkMode"])
        #expect(try await store.value(for: KVKey<Bool>("appearance.dark")) == nil)
    }

    private static func keysListsExactlyWhatIsStored(_ store: any AsyncKVStoring) async throws {
        #expect(try await store.keys() == [])
        for key in ["b", "a", "c.d", "A", "taskflow.projectName"] {
            try await store.set(KVKey<Int>(key), value: 1)
        }
        try await store.set(KVKey<Int>("a"), value: 2)
        #expect(try await store.keys() == ["A", "a", "b", "c.d", "taskflow.projectName"])
        try await store.remove(KVKey<Int>("b"))
        #expect(try await store.keys() == ["A", "a", "c.d", "taskflow.projectName"])
        try await store.removeAll()
        #expect(try await store.keys() == [])
    }

    private static func keysListsHostileKeys(_ store: any AsyncKVStoring) async throws {
        // Ending with a key given in NFD, which is listed in NFC.
        let keys = kvHostileSpellings
        for key in keys {
            try await store.set(KVKey<Int>(key), value: 1)
        }
        let expected = Set(keys.map(\.precomposedStringWithCanonicalMapping)).sorted()
        // Compared scalar by scalar: `==` on strings would take an NFD key for its NFC spelling.
        let listed = try await store.keys()
        #expect(listed.map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
    }
}

/// A model as version 1 of an app stored it.
struct ProfileV1: Codable, Sendable, Equatable {
    var name: String
}

/// The same model in version 2, which added a field without a default.
struct ProfileV2: Codable, Sendable, Equatable {
    var name: String
    var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    /// Version 1's profile, with an age of 0.
    init(_ old: ProfileV1) {
        self.init(name: old.name, age: 0)
    }
}
