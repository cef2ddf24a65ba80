internal import ForgeKVStore
internal import Testing

/// The checks of keys with a default (`KVKeyWithDefault`): a read returns the default when nothing is stored or what
/// is stored does not decode, while `contains` and `value(for:)` still tell a stored value from the default.
///
/// The library writes these operations once for the stores built on its contracts, above the requirements that take
/// a key without a default; the checks hold them to their promises over each store, through the store's synchronous
/// methods in ``KVStoringConformance`` and its asynchronous ones here, and hold a store written against the protocols
/// alone to the same promises.
extension AsyncKVStoringConformance {
    /// The checks of keys with a default, part of ``checks``.
    static var keyDefaultChecks: [Check] {
        [
            Check(
                "a key with a default reads its default when nothing is stored, and is not contained",
                aKeyWithADefaultReadsItsDefaultWhenNothingIsStored
            ),
            Check(
                "a key with a default reads the value stored under its name, a stored nil included",
                aKeyWithADefaultReadsTheStoredValue
            ),
            Check(
                "a value that does not decode reads as the default, and throws decodingFailed from value(for:)",
                anUndecodableValueReadsAsTheDefault
            ),
            Check("remove makes a key with a default read its default again", removeMakesTheDefaultReadAgain),
            Check("a stored value equal to the default is contained", aStoredValueEqualToTheDefaultIsContained),
            Check(
                "a key with a default reads through its migrations before its default",
                aKeyWithADefaultReadsThroughItsMigrations
            ),
        ]
    }

    private static func aKeyWithADefaultReadsItsDefaultWhenNothingIsStored(_ store: any AsyncKVStoring) async throws {
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        let theme = KVKeyWithDefault("taskflow.theme", default: TaskSettings(theme: "light", fontSize: 12, tags: []))
        #expect(try await store.get(onboarding) == false)
        #expect(try await store.get(theme) == TaskSettings(theme: "light", fontSize: 12, tags: []))
        #expect(try await !store.contains(onboarding))
        #expect(try await store.value(for: onboarding) == nil, "value(for:) tells nothing stored from the default")
        #expect(try await store.keys() == [], "a read never stores the default")
    }

    private static func aKeyWithADefaultReadsTheStoredValue(_ store: any AsyncKVStoring) async throws {
        let count = KVKey<Int>("taskflow.taskCount").withDefault(0)
        try await store.set(count, value: 5)
        #expect(try await store.get(count) == 5)
        #expect(try await store.value(for: count) == 5)
        #expect(try await store.contains(count))
        #expect(try await store.get(KVKey<Int>("taskflow.taskCount")) == 5, "the key without its default reads it too")
        try await store.set(KVKey<Int>("taskflow.taskCount"), value: 6)
        #expect(try await store.get(count) == 6)

        // An optional key's stored nil is a value: it reads as nil, not as the default.
        let projectName = KVKeyWithDefault<String?>("taskflow.projectName", default: "Inbox")
        #expect(try await store.get(projectName) == "Inbox")
        try await store.set(projectName, value: nil)
        #expect(try await store.get(projectName) == nil)
        #expect(try await store.contains(projectName))
        try await store.set(projectName, value: "Garden")
        #expect(try await store.get(projectName) == "Garden")
    }

    private static func anUndecodableValueReadsAsTheDefault(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<String>("mood"), value: "sunny")
        let mood = KVKeyWithDefault("mood", default: 3)
        #expect(try await store.get(mood) == 3)
        #expect(try await store.contains(mood), "a value is stored, though it does not decode")
        do {
            let read = try await store.value(for: mood)
            Issue.record("value(for:) read \(String(describing: read)), not decodingFailed")
        } catch let error as KVStoreError {
            guard case .decodingFailed(let key, _) = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(key == "mood")
        }
        #expect(try await store.get(KVKey<String>("mood")) == "sunny", "the read left the value stored")
    }

    private static func removeMakesTheDefaultReadAgain(_ store: any AsyncKVStoring) async throws {
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        let other = KVKeyWithDefault("taskflow.other", default: false)
        try await store.set(onboarding, value: true)
        try await store.set(other, value: true)
        try await store.remove(onboarding)
        #expect(try await store.get(onboarding) == false)
        #expect(try await !store.contains(onboarding))
        #expect(try await store.value(for: onboarding) == nil)
        #expect(try await store.get(other) == true)
        try await store.remove(KVKeyWithDefault("never.set", default: 1))
    }

    private static func aStoredValueEqualToTheDefaultIsContained(_ store: any AsyncKVStoring) async throws {
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        try await store.set(onboarding, value: false)
        #expect(try await store.contains(onboarding))
        #expect(try await store.value(for: onboarding) == false)
        #expect(try await store.get(onboarding) == false)
        #expect(try await store.keys() == ["taskflow.onboarding"])
    }

    private static func aKeyWithADefaultReadsThroughItsMigrations(_ store: any AsyncKVStoring) async throws {
        let blank = ProfileV2(name: "", age: 0)
        let renamed = KVKeyWithDefault(
            "profile.v2",
            default: blank,
            migrations: .from(ProfileV1.self, key: "user") { ProfileV2($0) }
        )
        try await store.set(KVKey<ProfileV1>("user"), value: ProfileV1(name: "Grace"))
        #expect(try await store.get(renamed) == ProfileV2(name: "Grace", age: 0))
        #expect(try await store.contains(renamed))
        #expect(try await store.value(for: renamed) == ProfileV2(name: "Grace", age: 0))
        try await store.remove(renamed)
        #expect(try await store.get(renamed) == blank, "remove took the older name too")
        #expect(try await store.keys() == [])

        // The same name, an older type: migrated; a value neither type reads: the default.
        let changed = KVKey<ProfileV2>("profile", migrations: .from(ProfileV1.self) { ProfileV2($0) })
            .withDefault(blank)
        try await store.set(KVKey<ProfileV1>("profile"), value: ProfileV1(name: "Ada"))
        #expect(try await store.get(changed) == ProfileV2(name: "Ada", age: 0))
        try await store.set(KVKey<Int>("profile"), value: 7)
        #expect(try await store.get(changed) == blank)
        await #expect(throws: KVStoreError.self) { try await store.value(for: changed) }
    }
}
