internal import ForgeCore
internal import ForgeKVStore
internal import Foundation
internal import Testing

/// The checks that call a store from several threads at once: real threads, so a race shows in nearly every run.
///
/// A subject with a `RaceGate` also has each check's rival call made between the two steps of a call that parks at
/// the gate, so a store whose call has such steps is caught in every run.
extension KVStoringConformance {
    /// The checks of calls from many threads, part of ``checks``.
    static var concurrencyChecks: [Check] {
        [
            Check("concurrent writes from many threads all land", concurrentWritesAllLand),
            Check(
                "a reader sees the old value or the new one while a writer saves back-to-back",
                aReaderSeesWholeValuesWhileAWriterSaves
            ),
        ]
    }

    /// Four threads write keys of their own, and write and read a key they all share: every write lands.
    ///
    /// Each thread makes 1,000 calls, or those it makes in 400 ms on a slow store.
    ///
    /// Kills a store without a lock, whose `set` copies its table, changes the copy and writes it back: writes made
    /// meanwhile by other threads are lost.
    private static func concurrentWritesAllLand(_ subject: Subject) async throws {
        let store = subject.store
        let threads = 4
        let calls = 1_000
        let contended = KVKey<Int>("contended")
        let failures = LockedState<[String]>([])
        // The calls each thread made before the time was up.
        let made = LockedState([Int](repeating: 0, count: threads))
        _ = await ConformanceThreads.run(threads) { thread in
            // From the starting line, which a busy machine may take a while to reach.
            let deadline = ContinuousClock.now + .milliseconds(400)
            var call = 0
            // At least the first call, which sets the shared key, however late the thread started.
            repeat {
                do {
                    switch call % 10 {
                    case 0: try store.set(contended, value: thread)
                    case 9: _ = store.get(contended)
                    default: try store.set(KVKey<Int>("thread\(thread).item\(call)"), value: thread * calls + call)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                call += 1
            } while call < calls && ContinuousClock.now < deadline
            made.withLock { $0[thread] = call }
        }
        #expect(failures.withLock { $0 } == [])
        var written = 0
        var lost: [String] = []
        for (thread, count) in made.withLock({ $0 }).enumerated() {
            for call in 0..<count where call % 10 != 0 && call % 10 != 9 {
                written += 1
                let name = "thread\(thread).item\(call)"
                if store.get(KVKey<Int>(name)) != thread * calls + call { lost.append(name) }
            }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(written) writes were lost, first \(lost.prefix(3))")
        let value = try #require(store.get(contended))
        #expect((0..<threads).contains(value))
        #expect(try store.keys().count == written + 1)
        if let gate = subject.raceGate {
            // A write made while another is between its steps lands, and so does the other.
            let first = KVKey<Int>("interleaved.first")
            let second = KVKey<Int>("interleaved.second")
            let outcome = await gate.interleave(
                { try store.set(first, value: 1) },
                with: { try store.set(second, value: 2) }
            )
            _ = try outcome.call.get()
            _ = try outcome.rival.get()
            #expect(store.get(first) == 1, "a write was lost to a write made while it was between its steps")
            #expect(store.get(second) == 2, "a write made while another was between its steps was lost")
        }
    }

    /// One thread saves two values in turn 500 times (as many as it can in 300 ms on a slow store) while another reads
    /// the key until the writer is done: every read returns one of the two values, never nil, an error or a mix.
    ///
    /// Kills a store that writes in two steps (removing the old value, then storing the new one), and one whose
    /// reader can see a value half written.
    private static func aReaderSeesWholeValuesWhileAWriterSaves(_ subject: Subject) async throws {
        let store = subject.store
        let key = KVKey<[Int]>("document")
        let first = Array(0..<200)
        let second = Array((0..<200).reversed())
        try store.set(key, value: first)
        let writerIsDone = LockedState(false)
        let unexpected = LockedState<[String]>([])
        let reads = LockedState(0)
        _ = await ConformanceThreads.run(2) { role in
            if role == 0 {
                defer { writerIsDone.withLock { $0 = true } }
                let deadline = ContinuousClock.now + .milliseconds(300)
                for index in 0..<500 where ContinuousClock.now < deadline {
                    do {
                        try store.set(key, value: index.isMultiple(of: 2) ? second : first)
                    } catch {
                        unexpected.withLock { $0.append("set threw \(error)") }
                    }
                }
            } else {
                var count = 0
                let deadline = ContinuousClock.now + .milliseconds(500)
                // Reads until the writer is done (at least 100 times) or the time is up, or until a read is wrong.
                while count < 100 || (!writerIsDone.withLock { $0 } && ContinuousClock.now < deadline) {
                    count += 1
                    do {
                        let value = try store.value(for: key)
                        if value != first && value != second {
                            unexpected.withLock { $0.append("read \(value.map { "\($0.prefix(4))…" } ?? "nil")") }
                            break
                        }
                    } catch {
                        unexpected.withLock { $0.append("value(for:) threw \(error)") }
                        break
                    }
                }
                reads.withLock { $0 = count }
            }
        }
        let seen = unexpected.withLock { $0 }
        #expect(seen.isEmpty, "after \(reads.withLock { $0 }) reads: \(seen.joined(separator: "; "))")
        if let gate = subject.raceGate {
            // A read made while a write is between its steps sees the old value or the new one.
            try store.set(key, value: first)
            let outcome = await gate.interleave(
                { try store.set(key, value: second) },
                with: { try store.value(for: key) }
            )
            _ = try outcome.call.get()
            let read = try outcome.rival.get()
            #expect(
                read == first || read == second,
                "a read while a write was between its steps got \(read.map { "\($0.prefix(4))…" } ?? "nil")"
            )
        }
    }
}
