internal import ForgeKVStore
internal import Testing

/// The checks of what a store shares: one value per key name whatever its type, storage that a second handle reads
/// and writes too, and a backing shared with neighbours that `removeAll` leaves alone.
extension AsyncKVStoringConformance {
    /// The checks of key names, second handles and neighbours, part of ``checks``.
    ///
    /// "a second handle sees every write and remove" needs the subject's `reopen`, and "removeAll and remove leave a
    /// neighbouring store alone" its `neighbour`: each is skipped without them.
    static var sharingChecks: [Check] {
        [
            Check("a key name holds one value, whatever type reads or writes it", aKeyNameHoldsOneValue),
            Check("a second handle sees every write and remove", needs: .secondHandle, aSecondHandleSeesEveryChange),
            Check("removeAll and remove leave a neighbouring store alone", needs: .neighbour, aNeighbourIsLeftAlone),
        ]
    }

    /// Kills a store that keeps a value per key name and type: `KVKey<Int>("x")` and `KVKey<String>("x")` are one key.
    private static func aKeyNameHoldsOneValue(_ store: any AsyncKVStoring) async throws {
        let number = KVKey<Int>("x")
        let text = KVKey<String>("x")
        try await store.set(number, value: 1)
        try await store.set(text, value: "one")
        #expect(try await store.get(number) == nil, "the String replaced the Int")
        #expect(try await store.get(text) == "one")
        #expect(try await store.contains(number))
        #expect(try await store.keys() == ["x"])
        try await store.set(number, value: 2)
        #expect(try await store.get(text) == nil, "the Int replaced the String")
        try await store.remove(text)
        #expect(try await !store.contains(number))
        #expect(try await store.get(number) == nil)
        #expect(try await store.keys() == [])
    }

    /// Kills a handle that caches what it read, and so misses what another handle wrote or removed since; and a
    /// `removeAll` that leaves, for another handle, keys a careless store finds hard to name (the hostile keys, which
    /// the second handle writes).
    private static func aSecondHandleSeesEveryChange(_ subject: Subject) async throws {
        let store = subject.store
        let other = try #require(try await subject.reopen?())
        let key = KVKey<Int>("shared")
        try await store.set(key, value: 1)
        #expect(try await other.get(key) == 1)
        try await other.set(key, value: 2)
        #expect(try await store.get(key) == 2)
        try await store.set(key, value: 3)
        #expect(try await other.get(key) == 3)
        #expect(try await other.value(for: key) == 3)
        try await store.remove(key)
        #expect(try await other.get(key) == nil)
        #expect(try await !other.contains(key))
        #expect(try await other.keys() == [])

        try await other.set(KVKey<String>("fromOther"), value: "written")
        #expect(try await store.get(KVKey<String>("fromOther")) == "written")
        #expect(try await store.keys() == ["fromOther"])
        try await setEveryHostileKey(in: other, from: 0)
        try await store.removeAll()
        #expect(try await other.get(KVKey<String>("fromOther")) == nil)
        try await expectNoHostileKey(in: other, "a second handle")
        try await expectNoHostileKey(in: store, "the store")
    }

    /// Kills a `removeAll` that clears the whole backing (every namespace in the folder, every suite), and stores
    /// that share values with their neighbours.
    ///
    /// Both stores hold every hostile key: the store's `removeAll` clears all of its own, and the neighbour keeps
    /// all of its.
    private static func aNeighbourIsLeftAlone(_ subject: Subject) async throws {
        let store = subject.store
        let neighbour = try #require(subject.neighbour)
        let shared = KVKey<String>("shared")
        try await neighbour.set(shared, value: "neighbour's")
        try await setEveryHostileKey(in: neighbour, from: 0)
        #expect(try await store.get(shared) == nil, "the neighbour's value shows in the store")
        #expect(try await store.keys() == [], "the neighbour's keys show in the store")
        try await store.set(shared, value: "store's")
        try await store.set(KVKey<Int>("mine"), value: 2)
        #expect(try await neighbour.get(shared) == "neighbour's")
        #expect(try await !neighbour.contains(KVKey<Int>("mine")))

        try await store.remove(shared)
        #expect(try await neighbour.get(shared) == "neighbour's")
        try await setEveryHostileKey(in: store, from: 1_000)
        try await store.removeAll()
        try await expectNoHostileKey(in: store, "the store")
        #expect(try await neighbour.get(shared) == "neighbour's")
        try await expectEveryHostileKey(in: neighbour, from: 0, listedWith: ["shared"])
    }
}
