internal import ForgeCore
internal import Foundation
internal import Testing

/// The checks that call a store from four threads at once, written once for every kind of store (see
/// ``RacedStore``): every write lands, and a read sees a whole value, never half of one or none.
///
/// The calls run on threads of their own (see `CheckThread`): tasks on the cooperative pool take turns more often
/// than they overlap, so a store without a lock would pass by chance; four threads overlap in every run. A fast store
/// makes ``callsPerThread`` calls in less than a time slice, so each thread goes on for at least ``minimumDuration``:
/// long enough for the threads to run side by side on a busy machine. A slow store (a vault that flushes each write)
/// stops after ``maximumDuration``, having made fewer calls, so that a check stays well under a second. Run the
/// suites under ThreadSanitizer too (`swift test --sanitize=thread`), which reports a data race even in a run the
/// checks do not catch. A store with a `RaceGate` also has each check's rival call made between the two steps of a
/// write that parks at the gate, so a store whose write has such steps is caught in every run.
enum ConformanceRaces {
    /// The threads that call the store at once.
    static let threadCount = 4
    /// How many calls each thread makes, when it can within ``maximumDuration``.
    static let callsPerThread = 500
    /// How long each thread goes on calling, at least.
    static let minimumDuration = Duration.milliseconds(50)
    /// How long each thread goes on calling at most.
    static let maximumDuration = Duration.milliseconds(300)
    /// The names each thread writes in turn.
    static let namesPerThread = 50

    /// Whether a thread that started at `start` and made `calls` calls is done.
    static func isDone(
        _ calls: Int,
        since start: ContinuousClock.Instant,
        lasting duration: Duration = minimumDuration
    ) -> Bool {
        let elapsed = ContinuousClock.now - start
        return elapsed >= maximumDuration || (calls >= callsPerThread && elapsed >= duration)
    }

    /// The two checks every synchronous suite makes, each on the store `racedStore` makes of its subject.
    static func checks<Subject>(
        _ racedStore: @escaping @Sendable (Subject) -> RacedStore
    ) -> [ConformanceCheck<Subject>] {
        [
            ConformanceCheck("writes from four threads at once all land") { subject in
                try await writesFromFourThreadsAllLand(racedStore(subject))
            },
            ConformanceCheck("a read while another thread writes back-to-back sees a whole value") { subject in
                try await aReadWhileAnotherThreadWritesSeesAWholeValue(racedStore(subject))
            },
        ]
    }

    /// The name thread `thread` writes on its call `call`.
    private static func name(_ thread: Int, _ call: Int) -> String {
        "threads/\(thread)/\(call % namesPerThread)"
    }

    /// Four threads write names of their own, each write read back at once, and every tenth call writes a name they
    /// all share: each read finds what its thread just wrote, each name holds the last text written to it, and the
    /// store holds every name written.
    ///
    /// Kills a store without a lock, whose write copies its table, changes the copy and writes it back: writes made
    /// meanwhile by other threads are lost.
    static func writesFromFourThreadsAllLand(_ store: RacedStore) async throws {
        let writes = LockedState([Int](repeating: 0, count: threadCount))
        try await CheckThreads.run(threadCount) { thread in
            let start = ContinuousClock.now
            var call = 0
            while !isDone(call, since: start) {
                defer { call += 1 }
                if call % 10 == 0 {
                    try await store.write("contended", "\(thread)")
                    continue
                }
                try await store.write(name(thread, call), "\(call)")
                guard try await store.read(name(thread, call)) == "\(call)" else {
                    Issue.record("a write to \(name(thread, call)) was lost: a read right after it did not find it")
                    return
                }
            }
            writes.withLock { $0[thread] = call }
        }
        var written: Set<String> = ["contended"]
        for (thread, count) in writes.withLock({ $0 }).enumerated() {
            // The last call that wrote each name: calls that are multiples of 10 wrote the shared name instead.
            var last: [String: Int] = [:]
            for call in 0..<count where call % 10 != 0 { last[name(thread, call)] = call }
            for (name, call) in last {
                written.insert(name)
                #expect(try await store.read(name) == "\(call)", "the last write to \(name) was lost")
            }
        }
        let contended = try await store.read("contended")
        #expect(
            contended.flatMap(Int.init).map((0..<threadCount).contains) == true,
            "the shared name holds \(contended ?? "nothing")"
        )
        let names = try await store.names()
        #expect(names == written, "the store holds \(names.count) names where \(written.count) were written")
        if let gate = store.raceGate {
            // A write made while another is between its steps lands, and so does the other.
            let outcome = await gate.interleave(
                { try await store.write("interleaved/first", "first") },
                with: { try await store.write("interleaved/second", "second") }
            )
            try outcome.call.get()
            try outcome.rival.get()
            #expect(
                try await store.read("interleaved/first") == "first",
                "a write was lost to a write made while it was between its steps"
            )
            #expect(
                try await store.read("interleaved/second") == "second",
                "a write made while another was between its steps was lost"
            )
        }
    }

    /// While one thread writes a name back-to-back, with two texts of different lengths in turn, three others read it:
    /// every read is one whole text, never nil, an error or a mix.
    ///
    /// Kills a store that writes in two steps (removing the old value, then storing the new one, or the value in two
    /// parts), and one whose reader can see a value half written.
    static func aReadWhileAnotherThreadWritesSeesAWholeValue(_ store: RacedStore) async throws {
        let name = "torn"
        // Of different lengths, so a value written in two parts reads as neither.
        let texts = [String(repeating: "a", count: 4_096), String(repeating: "b", count: 6_144)]
        try await store.write(name, texts[0])
        let writing = LockedState(true)
        try await CheckThreads.run(threadCount) { thread in
            if thread == 0 {
                defer { writing.withLock { $0 = false } }
                let start = ContinuousClock.now
                var call = 0
                // Longer: a reader meets a broken write's window between its steps only now and then.
                while !isDone(call, since: start, lasting: minimumDuration * 3) {
                    call += 1
                    try await store.write(name, texts[call % 2])
                }
                try await store.write(name, texts[0])
                return
            }
            // As many reads as a writer's calls (fewer on a slow store), and on until the writer is done.
            var reads = 0
            let start = ContinuousClock.now
            while !isDone(reads, since: start, lasting: .zero) || writing.withLock({ $0 }) {
                let read = try await store.read(name)
                reads += 1
                guard let read, texts.contains(read) else {
                    Issue.record("a read during writes saw \(read.map { "\($0.utf8.count) bytes" } ?? "nothing")")
                    return
                }
            }
        }
        #expect(try await store.read(name) == texts[0])
        if let gate = store.raceGate {
            // A read made while a write is between its steps sees a whole value, the old one or the new.
            let outcome = await gate.interleave(
                { try await store.write(name, texts[1]) },
                with: { try await store.read(name) }
            )
            try outcome.call.get()
            let read = try outcome.rival.get()
            #expect(
                read.map(texts.contains) == true,
                "a read while a write was between its steps saw \(read.map { "\($0.utf8.count) bytes" } ?? "nothing")"
            )
        }
    }
}
