internal import ForgeCore
internal import ForgeKVStore
internal import Foundation
internal import Testing

/// The checks that call a store from several threads at once: real threads, so a race shows in nearly every run.
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

    /// Four threads write 500 keys each, and every tenth write also a key they all share: every write lands.
    ///
    /// Kills a store without a lock, whose `set` copies its table, changes the copy and writes it back: writes made
    /// meanwhile by other threads are lost.
    private static func concurrentWritesAllLand(_ store: any KVStoring) async throws {
        let threads = 4
        let writes = 500
        let contended = KVKey<Int>("contended")
        let failures = LockedState<[String]>([])
        await onThreads(threads) { thread in
            for index in 0..<writes {
                do {
                    try store.set(KVKey<Int>("thread\(thread).item\(index)"), value: thread * writes + index)
                    if index.isMultiple(of: 10) {
                        try store.set(contended, value: thread)
                        _ = store.get(contended)
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        var lost: [String] = []
        for thread in 0..<threads {
            for index in 0..<writes
            where store.get(KVKey<Int>("thread\(thread).item\(index)")) != thread * writes + index {
                lost.append("thread\(thread).item\(index)")
            }
        }
        #expect(lost.isEmpty, "\(lost.count) of \(threads * writes) writes were lost, first \(lost.prefix(3))")
        let value = try #require(store.get(contended))
        #expect((0..<threads).contains(value))
        #expect(try store.keys().count == threads * writes + 1)
    }

    /// One thread saves two values in turn 500 times while another reads the key until the writer is done: every
    /// read returns one of the two values, never nil, an error or a mix.
    ///
    /// Kills a store that writes in two steps (removing the old value, then storing the new one), and one whose
    /// reader can see a value half written.
    private static func aReaderSeesWholeValuesWhileAWriterSaves(_ store: any KVStoring) async throws {
        let key = KVKey<[Int]>("document")
        let first = Array(0..<200)
        let second = Array((0..<200).reversed())
        try store.set(key, value: first)
        let writerIsDone = LockedState(false)
        let unexpected = LockedState<[String]>([])
        let reads = LockedState(0)
        await onThreads(2) { role in
            if role == 0 {
                defer { writerIsDone.withLock { $0 = true } }
                for index in 0..<500 {
                    do {
                        try store.set(key, value: index.isMultiple(of: 2) ? second : first)
                    } catch {
                        unexpected.withLock { $0.append("set threw \(error)") }
                    }
                }
            } else {
                var count = 0
                // Reads until the writer is done (at least 100 times), and at most a million times.
                while count < 100 || (!writerIsDone.withLock { $0 } && count < 1_000_000) {
                    count += 1
                    do {
                        let value = try store.value(for: key)
                        if value != first && value != second {
                            unexpected.withLock { $0.append("read \(value.map { "\($0.prefix(4))…" } ?? "nil")") }
                        }
                    } catch {
                        unexpected.withLock { $0.append("value(for:) threw \(error)") }
                    }
                }
                reads.withLock { $0 = count }
            }
        }
        let seen = unexpected.withLock { $0 }
        #expect(seen.isEmpty, "\(seen.count) of \(reads.withLock { $0 }) reads were wrong, first \(seen.prefix(3))")
    }

    /// Runs `body` on `count` threads of their own at once, passing each its index, and returns when all are done.
    ///
    /// Each thread waits for the others to start before it calls `body`, so the bodies overlap even on a busy machine.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        let started = LockedState(0)
        let finished = LockedState(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for index in 0..<count {
                let thread = Thread {
                    started.withLock { $0 += 1 }
                    while started.withLock({ $0 }) < count {
                        sched_yield()
                    }
                    body(index)
                    let isLast = finished.withLock { finished in
                        finished += 1
                        return finished == count
                    }
                    if isLast { continuation.resume() }
                }
                thread.start()
            }
        }
    }
}
