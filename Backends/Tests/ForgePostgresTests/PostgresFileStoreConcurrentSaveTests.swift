import ForgeFileStore
import ForgePostgres
import Foundation
import Testing

/// Two stores on two clients saving one path at once: one whole version is left, and a reader meanwhile finds one
/// whole version, never a mix.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreConcurrentSaveTests {
    @Test func twoStoresSavingOnePathAtOnceLeaveOneWholeVersion() async throws {
        try await TestServer.withFileStores(tableName: "concurrent_files") { first, second in
            // Several chunks each, so that a save spans several statements.
            let versions = (0..<4).map { patternedData(count: 2 * 1_048_576 + 1_000 * $0, seed: UInt8($0 * 50)) }
            try await first.save(versions[0], to: "shared/file.bin")
            for round in 0..<3 {
                let loads = try await withThrowingTaskGroup(of: Data?.self) { group in
                    for (index, version) in versions.enumerated() {
                        let store = index.isMultiple(of: 2) ? first : second
                        group.addTask {
                            try await store.save(version, to: "shared/file.bin")
                            return nil
                        }
                    }
                    group.addTask { try await second.load("shared/file.bin") }
                    group.addTask { try await first.load("shared/file.bin") }
                    var loads: [Data] = []
                    for try await load in group { if let load { loads.append(load) } }
                    return loads
                }
                for load in loads { #expect(versions.contains(load), "round \(round): a reader found a torn file") }
                let stored = try await second.load("shared/file.bin")
                #expect(versions.contains(stored), "round \(round): the stored file is not one whole version")
                #expect(try await first.totalSize() == stored.count)
            }
            #expect(try await TestServer.orphanedChunkCount(of: "concurrent_files", on: first.client) == 0)
        }
    }
}
