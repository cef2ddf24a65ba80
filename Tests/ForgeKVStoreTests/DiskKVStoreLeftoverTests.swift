import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// What a crashed process leaves behind, and how the next start cleans it up.
struct DiskKVStoreLeftoverTests {
    /// A process id no system hands out (above every `pid_max`), so its temporary files are orphans.
    private static let deadProcessID = 2_147_483_646

    @Test func aRemoveAllThatCrashedIsFinishedWhenAStoreStarts() async throws {
        try await withTemporaryFolder { base in
            try Self.writeKeptValue(in: base)
            // The hidden folder of a removeAll that crashed, beside the namespace folder, and one of another
            // namespace that must stay.
            let marker = TemporaryName.marker
            let trash = base.appendingPathComponent(".settings\(marker)\(Self.deadProcessID)-x1", isDirectory: true)
            let live = ProcessInfo.processInfo.processIdentifier
            let running = base.appendingPathComponent(".settings\(marker)\(live)-x2", isDirectory: true)
            let other = base.appendingPathComponent(".other\(marker)\(Self.deadProcessID)-x3", isDirectory: true)
            for folder in [trash, running, other] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("1".utf8).write(to: folder.appendingPathComponent("old.json"))
            }

            let reopened = DiskKVStore(directory: .custom(base), namespace: "settings")
            await StoreFolder.leftoverSweepsFinished()

            #expect(!FileManager.default.fileExists(atPath: trash.path))
            #expect(FileManager.default.fileExists(atPath: running.path))
            #expect(FileManager.default.fileExists(atPath: other.path))
            #expect(reopened.get(KVKey<Int>("kept")) == 1)
        }
    }

    @Test func theFirstStoreAnswersBeforeItsSweepHasRun() async throws {
        try await withTemporaryFolder { base in
            try Self.writeKeptValue(in: base)
            let orphan = base.appendingPathComponent(
                "settings/.kept.json\(TemporaryName.marker)\(Self.deadProcessID)-x"
            )
            try Data("{\"torn".utf8).write(to: orphan)

            // With the sweeps held back, the new store reads, writes and lists as if the orphan were not there.
            StoreFolder.sweeps.suspend()
            var resumed = false
            defer { if !resumed { StoreFolder.sweeps.resume() } }
            let store = DiskKVStore(directory: .custom(base), namespace: "settings")
            #expect(store.get(KVKey<Int>("kept")) == 1)
            try store.set(KVKey<Int>("new"), value: 2)
            #expect((try? store.keys()) ?? [] == ["kept", "new"])
            #expect(FileManager.default.fileExists(atPath: orphan.path))
            StoreFolder.sweeps.resume()
            resumed = true

            await StoreFolder.leftoverSweepsFinished()
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(store.get(KVKey<Int>("new")) == 2)
        }
    }

    @Test func temporaryFilesOfDeadWritersAreRemovedWhenAStoreStarts() async throws {
        try await withTemporaryFolder { base in
            try Self.writeKeptValue(in: base)
            let folder = base.appendingPathComponent("settings", isDirectory: true)
            let orphan =
                folder
                .appendingPathComponent(".kept.json\(TemporaryName.marker)\(Self.deadProcessID)-x")
            try Data("{\"torn".utf8).write(to: orphan)

            let reopened = DiskKVStore(directory: .custom(base), namespace: "settings")
            await StoreFolder.leftoverSweepsFinished()

            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["kept.json"])
            #expect(reopened.get(KVKey<Int>("kept")) == 1)
        }
    }

    /// The file a store of namespace `settings` writes for `kept` set to 1, made without a store: the first
    /// store for a folder in a process is the one that cleans up.
    private static func writeKeptValue(in base: URL) throws {
        let folder = base.appendingPathComponent("settings", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1".utf8).write(to: folder.appendingPathComponent("kept.json"))
    }
}
