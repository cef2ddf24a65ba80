internal import ForgeKVStore
internal import Testing

/// The checks of what a store shares: one value per key name whatever its type, storage that a second handle reads
/// and writes too, and a backing shared with neighbours that `removeAll` leaves alone.
extension KVStoringConformance {
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
    private static func aKeyNameHoldsOneValue(_ store: any KVStoring) async throws {
        let number = KVKey<Int>("x")
        let text = KVKey<String>("x")
        try store.set(number, value: 1)
        try store.set(text, value: "one")
        #expect(store.get(number) == nil, "the String replaced the Int")
        #expect(store.get(text) == "one")
        #expect(store.contains(number))
        #expect(try store.keys() == ["x"])
        try store.set(number, value: 2)
        #expect(store.get(text) == nil, "the Int replaced the String")
        try store.remove(text)
        #expect(!store.contains(number))
        #expect(store.get(number) == nil)
        #expect(try store.keys() == [])
    }

    /// Kills a handle that caches what it read, and so misses what another handle wrote or removed since.
    private static func aSecondHandleSeesEveryChange(_ subject: Subject) async throws {
        let store = subject.store
        let other = try #require(try subject.reopen?())
        let key = KVKey<Int>("shared")
        try store.set(key, value: 1)
        #expect(other.get(key) == 1)
        try other.set(key, value: 2)
        #expect(store.get(key) == 2)
        try store.set(key, value: 3)
        #expect(other.get(key) == 3)
        #expect(try other.value(for: key) == 3)
        try store.remove(key)
        #expect(other.get(key) == nil)
        #expect(!other.contains(key))
        #expect(try other.keys() == [])

        try other.set(KVKey<String>("fromOther"), value: "written")
        #expect(store.get(KVKey<String>("fromOther")) == "written")
        #expect(try store.keys() == ["fromOther"])
        try store.removeAll()
        #expect(other.get(KVKey<String>("fromOther")) == nil)
        #expect(try other.keys() == [])
    }

    /// Kills a `removeAll` that clears the whole backing (every namespace in the folder, every suite), and stores
    /// that share values with their neighbours.
    private static func aNeighbourIsLeftAlone(_ subject: Subject) async throws {
        let store = subject.store
        let neighbour = try #require(subject.neighbour)
        let shared = KVKey<String>("shared")
        try neighbour.set(shared, value: "neighbour's")
        try neighbour.set(KVKey<Int>(".hidden"), value: 1)
        #expect(store.get(shared) == nil, "the neighbour's value shows in the store")
        try store.set(shared, value: "store's")
        try store.set(KVKey<Int>("mine"), value: 2)
        #expect(neighbour.get(shared) == "neighbour's")
        #expect(!neighbour.contains(KVKey<Int>("mine")))

        try store.remove(shared)
        #expect(neighbour.get(shared) == "neighbour's")
        try store.removeAll()
        #expect(try store.keys() == [])
        #expect(neighbour.get(shared) == "neighbour's")
        #expect(neighbour.get(KVKey<Int>(".hidden")) == 1)
        #expect(try neighbour.keys() == [".hidden", "shared"])
    }
}
