internal import ForgeKVStore
internal import Testing

/// The checks of keys with a default (`KVKeyWithDefault`): a read returns the default when nothing is stored or what
/// is stored does not decode, while `contains` and `value(for:)` still tell a stored value from the default.
///
/// The library writes these operations once, above the requirements every store implements; the checks hold that
/// layer to its promises over each store, through the store's synchronous methods in ``KVStoringConformance`` and
/// its asynchronous ones here.
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
        let calls = KeyWithDefaultCalls(store)
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        let theme = KVKeyWithDefault("taskflow.theme", default: TaskSettings(theme: "light", fontSize: 12, tags: []))
        #expect(try await calls.get(onboarding) == false)
        #expect(try await calls.get(theme) == TaskSettings(theme: "light", fontSize: 12, tags: []))
        #expect(try await !calls.contains(onboarding))
        #expect(try await calls.value(for: onboarding) == nil, "value(for:) tells nothing stored from the default")
        #expect(try await store.keys() == [], "a read never stores the default")
    }

    private static func aKeyWithADefaultReadsTheStoredValue(_ store: any AsyncKVStoring) async throws {
        let calls = KeyWithDefaultCalls(store)
        let count = KVKey<Int>("taskflow.taskCount").withDefault(0)
        try await calls.set(count, value: 5)
        #expect(try await calls.get(count) == 5)
        #expect(try await calls.value(for: count) == 5)
        #expect(try await calls.contains(count))
        #expect(try await store.get(KVKey<Int>("taskflow.taskCount")) == 5, "the key without its default reads it too")
        try await store.set(KVKey<Int>("taskflow.taskCount"), value: 6)
        #expect(try await calls.get(count) == 6)

        // An optional key's stored nil is a value: it reads as nil, not as the default.
        let projectName = KVKeyWithDefault<String?>("taskflow.projectName", default: "Inbox")
        #expect(try await calls.get(projectName) == "Inbox")
        try await calls.set(projectName, value: nil)
        #expect(try await calls.get(projectName) == nil)
        #expect(try await calls.contains(projectName))
        try await calls.set(projectName, value: "Garden")
        #expect(try await calls.get(projectName) == "Garden")
    }

    private static func anUndecodableValueReadsAsTheDefault(_ store: any AsyncKVStoring) async throws {
        let calls = KeyWithDefaultCalls(store)
        try await store.set(KVKey<String>("mood"), value: "sunny")
        let mood = KVKeyWithDefault("mood", default: 3)
        #expect(try await calls.get(mood) == 3)
        #expect(try await calls.contains(mood), "a value is stored, though it does not decode")
        do {
            let read = try await calls.value(for: mood)
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
        let calls = KeyWithDefaultCalls(store)
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        let other = KVKeyWithDefault("taskflow.other", default: false)
        try await calls.set(onboarding, value: true)
        try await calls.set(other, value: true)
        try await calls.remove(onboarding)
        #expect(try await calls.get(onboarding) == false)
        #expect(try await !calls.contains(onboarding))
        #expect(try await calls.value(for: onboarding) == nil)
        #expect(try await calls.get(other) == true)
        try await calls.remove(KVKeyWithDefault("never.set", default: 1))
    }

    private static func aStoredValueEqualToTheDefaultIsContained(_ store: any AsyncKVStoring) async throws {
        let calls = KeyWithDefaultCalls(store)
        let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
        try await calls.set(onboarding, value: false)
        #expect(try await calls.contains(onboarding))
        #expect(try await calls.value(for: onboarding) == false)
        #expect(try await calls.get(onboarding) == false)
        #expect(try await store.keys() == ["taskflow.onboarding"])
    }

    private static func aKeyWithADefaultReadsThroughItsMigrations(_ store: any AsyncKVStoring) async throws {
        let calls = KeyWithDefaultCalls(store)
        let blank = ProfileV2(name: "", age: 0)
        let renamed = KVKeyWithDefault(
            "profile.v2",
            default: blank,
            migrations: .from(ProfileV1.self, key: "user") { ProfileV2($0) }
        )
        try await store.set(KVKey<ProfileV1>("user"), value: ProfileV1(name: "Grace"))
        #expect(try await calls.get(renamed) == ProfileV2(name: "Grace", age: 0))
        #expect(try await calls.contains(renamed))
        #expect(try await calls.value(for: renamed) == ProfileV2(name: "Grace", age: 0))
        try await calls.remove(renamed)
        #expect(try await calls.get(renamed) == blank, "remove took the older name too")
        #expect(try await store.keys() == [])

        // The same name, an older type: migrated; a value neither type reads: the default.
        let changed = KVKey<ProfileV2>("profile", migrations: .from(ProfileV1.self) { ProfileV2($0) })
            .withDefault(blank)
        try await store.set(KVKey<ProfileV1>("profile"), value: ProfileV1(name: "Ada"))
        #expect(try await calls.get(changed) == ProfileV2(name: "Ada", age: 0))
        try await store.set(KVKey<Int>("profile"), value: 7)
        #expect(try await calls.get(changed) == blank)
        await #expect(throws: KVStoreError.self) { try await calls.value(for: changed) }
    }
}

/// The operations on keys with a default, made through a synchronous store's own synchronous methods (the library's
/// `KVStoring` extension) when the subject is a ``SynchronousKVStore``, else through `AsyncKVStoring`'s.
///
/// Those operations are extension methods, not requirements, so ``SynchronousKVStore`` cannot forward them; this is
/// how ``KVStoringConformance`` checks the synchronous ones.
private struct KeyWithDefaultCalls: Sendable {
    /// The store under check.
    let store: any AsyncKVStoring
    /// The synchronous store it wraps, when it is a ``SynchronousKVStore``.
    let synchronous: (any KVStoring)?

    init(_ store: any AsyncKVStoring) {
        self.store = store
        self.synchronous = (store as? SynchronousKVStore)?.base
    }

    func get<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> T {
        if let synchronous { return synchronous.get(key) }
        return try await store.get(key)
    }

    func value<T: Codable & Sendable>(for key: KVKeyWithDefault<T>) async throws -> T? {
        if let synchronous { return try synchronous.value(for: key) }
        return try await store.value(for: key)
    }

    func set<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>, value: T) async throws {
        if let synchronous { return try synchronous.set(key, value: value) }
        try await store.set(key, value: value)
    }

    func remove<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws {
        if let synchronous { return try synchronous.remove(key) }
        try await store.remove(key)
    }

    func contains<T: Codable & Sendable>(_ key: KVKeyWithDefault<T>) async throws -> Bool {
        if let synchronous { return synchronous.contains(key) }
        return try await store.contains(key)
    }
}
