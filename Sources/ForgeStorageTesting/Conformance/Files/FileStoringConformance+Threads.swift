internal import ForgeCore
internal import ForgeFileStore
internal import Foundation
internal import Testing

// The checks that call a store from four real threads at once: the two every suite makes (`ConformanceRaces`), and
// one of files alone, saves without overwrite, with the same threads and the same time bounds.

extension FileStoringConformance {
    /// The checks of calls from many threads, part of ``checks``.
    static var concurrencyChecks: [Check] {
        ConformanceRaces.checks { $0.racedStore } + [
            Check(
                "saves without overwrite from four threads never both win",
                savesWithoutOverwriteFromFourThreadsNeverBothWin
            )
        ]
    }

    /// Four threads race to save without overwrite to one path, 500 times each: each winner finds its own file until
    /// it deletes it, because no second save can win meanwhile.
    ///
    /// Kills a store that checks for the file and then saves it in two steps, so that two saves both win.
    static func savesWithoutOverwriteFromFourThreadsNeverBothWin(_ subject: Subject) async throws {
        let store = subject.store
        let path = "claims/one.bin"
        try await CheckThreads.run(ConformanceRaces.threadCount) { thread in
            let start = ContinuousClock.now
            var call = 0
            // Longer: two saves meet in the window between a broken store's check and save only now and then.
            while !ConformanceRaces.isDone(call, since: start, lasting: ConformanceRaces.minimumDuration * 5) {
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

extension FileStoringConformance.Subject {
    /// The store as the race checks see it: a file per name, holding the text's bytes.
    var racedStore: RacedStore {
        let store = store
        return RacedStore(
            write: { name, text in try await store.save(Data(text.utf8), to: name) },
            read: { name in
                do {
                    return String(decoding: try await store.load(name), as: UTF8.self)
                } catch FileStoreError.notFound {
                    return nil
                }
            },
            names: { try await Self.allFiles(of: store, in: "") },
            raceGate: raceGate
        )
    }

    /// The paths of every file under `folder`, in its folders too.
    private static func allFiles(of store: any FileStoring, in folder: String) async throws -> Set<String> {
        var files: Set<String> = []
        for entry in try await store.list(in: folder) {
            if entry.hasSuffix("/") {
                files.formUnion(try await allFiles(of: store, in: String(entry.dropLast())))
            } else {
                files.insert(entry)
            }
        }
        return files
    }
}
