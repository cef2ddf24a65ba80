import ForgeFileStore
import ForgePostgres
import Foundation
import Testing

/// Saves with `overwrite: false` racing for one path from two clients: exactly one wins, the others are told
/// `alreadyExists`, and the winner's content is what is stored.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreOverwriteRaceTests {
    @Test func ofConcurrentSavesWithoutOverwriteExactlyOneWins() async throws {
        try await TestServer.withFileStores { first, second in
            for round in 0..<5 {
                let path = "claims/round-\(round).txt"
                let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                    for contender in 0..<6 {
                        let store = contender.isMultiple(of: 2) ? first : second
                        group.addTask {
                            do {
                                try await store.save(Data("contender \(contender)".utf8), to: path, overwrite: false)
                                return (contender, true)
                            } catch FileStoreError.alreadyExists(let named) where named == path {
                                return (contender, false)
                            }
                        }
                    }
                    var outcomes: [(Int, Bool)] = []
                    for try await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }
                let winners = outcomes.filter(\.1).map(\.0)
                #expect(winners.count == 1, "round \(round): \(winners.count) saves won")
                if let winner = winners.first {
                    #expect(try await first.load(path) == Data("contender \(winner)".utf8))
                }
            }
        }
    }

    @Test func aFileAndAFolderOnOnePathRacingLeaveOnlyOne() async throws {
        try await TestServer.withFileStores { first, second in
            for round in 0..<5 {
                let folder = "race-\(round)"
                let asFile = Task { try await first.save(Data("file".utf8), to: folder) }
                let asFolder = Task { try await second.save(Data("inner".utf8), to: folder + "/inner.txt") }
                let fileResult = await asFile.result
                let folderResult = await asFolder.result
                let listed = try await first.list(in: "").filter { $0.hasPrefix(folder) }
                switch (fileResult, folderResult) {
                case (.success, .failure(let error)):
                    #expect(
                        error as? FileStoreError == .writeFailed(path: folder + "/inner.txt", reason: .parentIsFile)
                    )
                    #expect(listed == [folder])
                case (.failure(let error), .success):
                    #expect(error as? FileStoreError == .writeFailed(path: folder, reason: .isFolder))
                    #expect(listed == [folder + "/"])
                default:
                    Issue.record("round \(round): expected exactly one save to succeed: \(fileResult), \(folderResult)")
                }
            }
        }
    }
}
