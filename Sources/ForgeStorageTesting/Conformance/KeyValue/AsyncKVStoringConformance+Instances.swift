internal import ForgeKVStore
internal import Testing

/// The check that a read returns the value as the store holds it, never an instance a caller holds: a class instance
/// changed after `set`, or after a read, does not change what the next read returns, as on disk.
extension AsyncKVStoringConformance {
    /// Kills a store that keeps the instance `set` was given and hands it back to `get` and `value(for:)` (to skip
    /// decoding), so that a change the caller makes after the `set` shows in every read; and one that keeps the
    /// instance a read decoded and hands it to every later read, so that a change to what one read returned shows in
    /// the others.
    ///
    /// A value that holds class instances inside a collection is held to the same promise: a store that copies only a
    /// value that is itself a class instance fails too.
    static func aReadReturnsTheValueAsStoredNeverAnInstanceGiven(_ store: any AsyncKVStoring) async throws {
        let key = KVKey<TaskProgress>("taskProgress")
        let written = TaskProgress(completed: 1)
        try await store.set(key, value: written)
        written.completed = 2

        let read = try #require(try await store.get(key))
        #expect(read !== written, "get returned the instance set was given")
        #expect(read.completed == 1, "get read the value as changed after set")
        let value = try #require(try await store.value(for: key))
        #expect(value !== written, "value(for:) returned the instance set was given")
        #expect(value.completed == 1, "value(for:) read the value as changed after set")
        #expect(value !== read, "value(for:) returned the instance get returned")

        read.completed = 3
        let again = try #require(try await store.get(key))
        #expect(again !== read, "a second get returned the instance the first get returned")
        #expect(again.completed == 1, "a change to what get returned changed what the next get returns")

        let listKey = KVKey<[TaskProgress]>("taskProgressList")
        let list = [TaskProgress(completed: 1)]
        try await store.set(listKey, value: list)
        list[0].completed = 2
        let readList = try #require(try await store.get(listKey))
        #expect(readList.map(\.completed) == [1], "get read the list's element as changed after set")
        #expect(zip(readList, list).allSatisfy { $0 !== $1 }, "get returned an instance set was given, in a list")

        // A value whose mirror hides what it holds: a store cannot see the instance inside, so it must not share it.
        let boxKey = KVKey<ProgressBox>("progressBox")
        try await store.set(boxKey, value: ProgressBox(progress: TaskProgress(completed: 1)))
        let firstBox = try #require(try await store.get(boxKey))
        firstBox.progress.completed = 2
        let secondBox = try #require(try await store.get(boxKey))
        #expect(secondBox.progress !== firstBox.progress, "two gets returned one instance, inside a custom mirror")
        #expect(secondBox.progress.completed == 1, "a change to what get returned showed in the next get's value")
    }
}
