internal import ForgeCore
internal import ForgeCrypt
internal import Foundation
internal import Testing

/// The checks of calls from many threads at once: every call lands, and a read sees a whole secret, never half of
/// one or none.
///
/// They run on threads of their own (see ``ConformanceThreads``), so a store without a lock, or one that writes a secret in two
/// steps, fails them in nearly every run; run them under ThreadSanitizer (`swift test --sanitize=thread`) too,
/// which reports a data race even in a run the checks do not catch. A subject with a `RaceGate` also has each
/// check's rival call made between the two steps of a set that parks at the gate, so a store whose set has such
/// steps is caught in every run.
extension CryptStoringConformance {
    /// The checks of concurrent calls, part of ``checks``.
    static var concurrencyChecks: [Check] {
        [
            // Kills a store that sets by copying its items, changing the copy and writing it back (lost updates).
            Check("sets of distinct keys from four threads at once all land", setsOfDistinctKeysFromFourThreadsAllLand),
            // Kills a store that removes the old secret before writing the new one, or writes it in two parts.
            Check(
                "a read while another thread sets the key back-to-back sees a whole secret",
                aReadWhileAnotherThreadSetsTheKeySeesAWholeSecret
            ),
        ]
    }

    /// The threads that set distinct keys at once.
    static let threadCount = 4
    /// The keys each of those threads sets: 100, so the slowest shipped store (the vault, which flushes every
    /// write to disk) takes a fraction of a second, and a store that loses concurrent sets still loses some in
    /// nearly every run.
    static let setsPerThread = 100
    /// The fewest sets of one key a writer makes back-to-back while another thread reads it.
    static let backToBackSets = 100
    /// The shortest time the threads of a check keep calling the store: a fast store makes many more calls than
    /// the counts above in it, so the threads overlap on a busy machine, and meet a race in a narrow window.
    static let raceDuration: Duration = .milliseconds(30)

    /// The key `index` of thread `thread`, which only that thread sets.
    private static func threadKey(_ thread: Int, _ index: Int) -> CryptKey<String> {
        CryptKey(key: "thread\(thread).key\(index)")
    }

    private static func setsOfDistinctKeysFromFourThreadsAllLand(_ subject: Subject) async throws {
        let store = subject.store
        let lost = LockedState<[String]>([])
        // Each thread sets its own keys, then reads them back, in rounds: at least one, and more for
        // ``raceDuration`` on a fast store, so the threads overlap on a busy machine too.
        let failures = await ConformanceThreads.run(threadCount) { thread in
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: raceDuration)
            var round = 0
            repeat {
                round += 1
                for index in 0..<setsPerThread {
                    try store.set("secret \(thread).\(index).\(round)", for: threadKey(thread, index))
                }
                for index in 0..<setsPerThread
                where try store.get(threadKey(thread, index)) != "secret \(thread).\(index).\(round)" {
                    lost.withLock { $0.append(threadKey(thread, index).key) }
                }
                // Once a set is lost, the check has failed: stop early.
            } while clock.now < end && lost.withLock(\.isEmpty)
        }
        #expect(failures.isEmpty, "calls threw: \(failures.prefix(3))")
        let lostKeys = lost.withLock { $0 }
        #expect(
            lostKeys.isEmpty,
            "\(lostKeys.count) sets made at once did not read back, such as \(lostKeys.prefix(3))"
        )
        let expected = (0..<threadCount).flatMap { thread in (0..<setsPerThread).map { threadKey(thread, $0).key } }
        let listed = Set(try store.keys())
        let unlisted = expected.filter { !listed.contains($0) }
        #expect(unlisted.isEmpty, "\(unlisted.count) keys set at once are not listed, such as \(unlisted.prefix(3))")
        if let gate = subject.raceGate {
            // A set made while another is between its steps lands, and so does the other.
            let first = CryptKey<String>(key: "interleaved.first")
            let second = CryptKey<String>(key: "interleaved.second")
            let outcome = await gate.interleave(
                { try store.set("first", for: first) },
                with: { try store.set("second", for: second) }
            )
            try outcome.call.get()
            try outcome.rival.get()
            #expect(try store.get(first) == "first", "a set was lost to a set made while it was between its steps")
            #expect(try store.get(second) == "second", "a set made while another was between its steps was lost")
        }
    }

    private static func aReadWhileAnotherThreadSetsTheKeySeesAWholeSecret(_ subject: Subject) async throws {
        let store = subject.store
        let key = CryptKey<String>(key: "contended")
        // Of different lengths, so a secret written in two parts reads as neither.
        let secrets = [String(repeating: "a", count: 64), String(repeating: "b", count: 96)]
        try store.set(secrets[0], for: key)
        let writerIsDone = LockedState(false)
        let seen = LockedState<[String]>([])
        // One writer, and two readers, so one reads while the writer is between two steps of a set.
        let failures = await ConformanceThreads.run(3) { thread in
            if thread == 0 {
                defer { writerIsDone.withLock { $0 = true } }
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: raceDuration)
                var call = 0
                // Until enough sets are made, or a reader saw no whole secret and the check has failed.
                while (call < backToBackSets || clock.now < end) && seen.withLock(\.isEmpty) {
                    call += 1
                    try store.set(secrets[call % 2], for: key)
                }
                try store.set(secrets[0], for: key)
            } else {
                // Reads until the writer is done.
                var isDone = false
                while !isDone {
                    isDone = writerIsDone.withLock { $0 }
                    let read = try store.get(key)
                    if let read, secrets.contains(read) { continue }
                    seen.withLock { $0.append(read.map { "\($0.utf8.count) bytes: \($0.prefix(8))…" } ?? "nil") }
                }
            }
        }
        #expect(failures.isEmpty, "calls threw: \(failures.prefix(3))")
        let unexpected = seen.withLock { $0 }
        #expect(unexpected.isEmpty, "\(unexpected.count) reads saw no whole secret, such as \(unexpected.prefix(3))")
        #expect(try store.get(key) == secrets[0])
        if let gate = subject.raceGate {
            // A read made while a set is between its steps sees a whole secret, the old one or the new.
            let outcome = await gate.interleave({ try store.set(secrets[1], for: key) }, with: { try store.get(key) })
            try outcome.call.get()
            let read = try outcome.rival.get()
            #expect(
                read.map(secrets.contains) == true,
                "a read while a set was between its steps saw \(read.map { "\($0.utf8.count) bytes" } ?? "nil")"
            )
        }
    }
}
