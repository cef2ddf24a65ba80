internal import ForgeCore
internal import ForgeFileStore
internal import Foundation
internal import Testing

// The checks that call a store from four real threads at once (see `FileCheckThread`): many tasks on the
// cooperative pool take turns more often than they overlap, so a store without a lock passes them by chance;
// four threads × 500 calls overlap in every run. A fast store makes 500 calls in less than a time slice, so each
// thread goes on for at least `minimumDuration`: long enough for the threads to run side by side on a busy machine.
// A slow store stops after `maximumDuration`, having made fewer calls, so that each check stays well under a second.
// A subject with a `RaceGate` also has each check's rival call made between the two steps of a save that parks at the
// gate, so a store whose save has such steps is caught in every run, not only when the threads meet in the window.

extension FileStoringConformance {
    /// How many calls each of the four threads makes.
    static let callsPerThread = 500
    /// How long each thread goes on calling, at least.
    static let minimumDuration = Duration.milliseconds(50)
    /// How long each thread goes on calling at most: a slow store (a disk on a busy machine) makes fewer calls, so
    /// that a check stays well under a second.
    static let maximumDuration = Duration.milliseconds(300)

    /// Whether a thread that started at `start` and made `calls` calls is done.
    private static func isDone(
        _ calls: Int,
        since start: ContinuousClock.Instant,
        lasting duration: Duration = minimumDuration
    ) -> Bool {
        let elapsed = ContinuousClock.now - start
        return elapsed >= maximumDuration || (calls >= callsPerThread && elapsed >= duration)
    }

    /// Four threads make 500 calls each at once, saving to 50 files of their own and loading each save back, and
    /// every save lands: each load finds what its thread just saved, and each file the last version saved.
    ///
    /// Kills a store whose save rewrites a copy of all its files (read under the lock, written back under it),
    /// so that one thread's save drops another's.
    static func savesFromFourThreadsAllLand(_ subject: Subject) async throws {
        let store = subject.store
        let filesPerThread = 50
        let saves = LockedState([Int](repeating: 0, count: 4))
        try await FileCheckThread.run(4) { thread, _ in
            let start = ContinuousClock.now
            var save = 0
            while !isDone(save * 2, since: start) {
                let path = "threads/\(thread)/\(save % filesPerThread).txt"
                try await store.save(Data("\(save)".utf8), to: path)
                guard (try? await store.load(path)) == Data("\(save)".utf8) else {
                    Issue.record("a save to \(path) was lost: a load right after it did not find it")
                    return
                }
                save += 1
            }
            saves.withLock { $0[thread] = save }
        }
        let counts = saves.withLock { $0 }
        for (thread, count) in counts.enumerated() {
            // A slow store stopped by the time cap may have saved fewer files than `filesPerThread`.
            for file in 0..<min(filesPerThread, count) {
                let path = "threads/\(thread)/\(file).txt"
                // The last save to this file: the one of the last `filesPerThread` saves that went to it.
                let last = count - 1 - (count - 1 - file) % filesPerThread
                #expect(try await store.load(path) == Data("\(last)".utf8), "the last save to \(path) was lost")
            }
        }
        let folders = counts.indices.filter { counts[$0] > 0 }.map { "threads/\($0)/" }
        #expect(try await store.list(in: "threads") == folders)
        if let gate = subject.raceGate {
            // A save made while another is between its steps lands, and so does the other.
            let outcome = await gate.interleave(
                { try await store.save(Data("first".utf8), to: "interleaved/first.txt") },
                with: { try await store.save(Data("second".utf8), to: "interleaved/second.txt") }
            )
            try outcome.call.get()
            try outcome.rival.get()
            #expect(
                (try? await store.load("interleaved/first.txt")) == Data("first".utf8),
                "a save was lost to a save made while it was between its steps"
            )
            #expect(
                (try? await store.load("interleaved/second.txt")) == Data("second".utf8),
                "a save made while another was between its steps was lost"
            )
        }
    }

    /// While one thread saves a file back-to-back, three others load it, and every load is one whole version.
    ///
    /// Kills a store whose save is not one atomic step (it writes the file in parts, each under the lock).
    static func aReaderLoadingWhileAWriterSavesSeesWholeFiles(_ subject: Subject) async throws {
        let store = subject.store
        let size = 32 * 1024
        let path = "torn/file.bin"
        try await store.save(Data(repeating: 1, count: size), to: path)
        let writing = LockedState(true)
        try await FileCheckThread.run(4) { thread, _ in
            if thread == 0 {
                defer { writing.withLock { $0 = false } }
                let start = ContinuousClock.now
                var call = 0
                // Longer: a reader meets a broken save's window between its steps only now and then.
                while !isDone(call, since: start, lasting: minimumDuration * 3) {
                    try await store.save(
                        Data(repeating: UInt8(truncatingIfNeeded: call % 250 + 2), count: size),
                        to: path
                    )
                    call += 1
                }
                return
            }
            // As many loads as a writer's calls (fewer on a slow store), and on until the writer is done. A torn file
            // is short, or its first and last bytes come from different versions.
            var loads = 0
            let start = ContinuousClock.now
            while !isDone(loads, since: start, lasting: .zero) || writing.withLock({ $0 }) {
                let data = try await store.load(path)
                loads += 1
                guard data.count == size, data.first == data.last else {
                    Issue.record("a load during a save read \(data.count) bytes that are not one whole version")
                    return
                }
            }
        }
        if let gate = subject.raceGate {
            // A load made while a save is between its steps reads one whole version.
            let outcome = await gate.interleave(
                { try await store.save(Data(repeating: 1, count: size), to: path) },
                with: { try await store.load(path) }
            )
            try outcome.call.get()
            let data = try outcome.rival.get()
            #expect(
                data.count == size && data.first == data.last,
                "a load while a save was between its steps read \(data.count) bytes that are not one whole version"
            )
        }
    }

    /// Four threads race to save without overwrite to one path, 500 times each: each winner finds its own file until
    /// it deletes it, because no second save can win meanwhile.
    ///
    /// Kills a store that checks for the file and then saves it in two steps, so that two saves both win.
    static func savesWithoutOverwriteFromFourThreadsNeverBothWin(_ subject: Subject) async throws {
        let store = subject.store
        let path = "claims/one.bin"
        try await FileCheckThread.run(4) { thread, _ in
            let start = ContinuousClock.now
            var call = 0
            // Longer: two saves meet in the window between a broken store's check and save only now and then.
            while !isDone(call, since: start, lasting: minimumDuration * 5) {
                call += 1
                let mine = Data("\(thread)/\(call)".utf8)
                do {
                    try await store.save(mine, to: path, overwrite: false)
                } catch FileStoreError.alreadyExists {
                    continue
                }
                let found = try await store.load(path)
                guard found == mine else {
                    Issue.record("a save without overwrite won, and then another replaced it")
                    return
                }
                do {
                    try await store.delete(path)
                } catch FileStoreError.notFound {
                    Issue.record("a save without overwrite won, and another winner deleted its file")
                    return
                }
            }
        }
        #expect(try await store.list(in: "claims").isEmpty)
        if let gate = subject.raceGate {
            // Of a save without overwrite and another made while it is between its steps, exactly one wins.
            let mine = Data("first".utf8)
            let theirs = Data("second".utf8)
            let outcome = await gate.interleave(
                { try await store.save(mine, to: path, overwrite: false) },
                with: { try await store.save(theirs, to: path, overwrite: false) }
            )
            let winners = [outcome.call, outcome.rival].filter { (try? $0.get()) != nil }.count
            #expect(winners == 1, "\(winners) of two saves without overwrite to one path won")
            let found = try await store.load(path)
            #expect(found == ((try? outcome.call.get()) != nil ? mine : theirs), "the file is not the winner's")
        }
    }
}
