// The sample shows no imports: these are scaffolding.
import ForgeKVStore
import Testing

// forgestorage-testing.md, "StreamTests.swift"
// DIVERGES: as written the sample does not compile in the Swift 6 language mode (the default of a tools-version 6
// package), whatever the library: its `Task` closure mutates the captured `var received`, which the test function
// reads too: "sending value of non-Sendable type '() async -> ()' risks causing data races". Not the library's API:
// every library call in it compiles. The `@MainActor` below is not the sample's: it puts the test and its task on one
// actor, so the rest of the sample, verbatim, compiles, and the task starts (subscribes) before the test resumes
// from its first sleep, so the sample's sleeps do not decide the outcome.
@MainActor  // DIVERGES: added, see above
@Test func streamEmitsCurrentAndChanges() async throws {
    let store = InMemoryKVStore()
    let reactive = ReactiveKVStore(store)
    let key = KVKey<Int>("taskflow.taskCount")

    var received: [Int?] = []

    let task = Task {
        for await value in reactive.stream(key) {
            received.append(value)
            if received.count == 3 { break }
        }
    }

    // Allow the stream to start
    try await Task.sleep(for: .milliseconds(50))

    try reactive.set(key, value: 10)
    try await Task.sleep(for: .milliseconds(50))

    try reactive.set(key, value: 20)

    await task.value

    #expect(received == [nil, 10, 20])  // initial nil, then two changes
}
