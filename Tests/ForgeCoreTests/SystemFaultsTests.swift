// The seam exists in debug builds only (ForgeCore's `FORGE_SYSTEM_FAULTS`).
#if DEBUG
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

/// The seam the fault sweep fails calls through (`systemCall`, `SystemFaultPlan`), and what the library does with the
/// faults it found there: a listing that fails, a read cut short, a `.flushed` write whose folder's flush fails.
///
/// Serialized: one fault plan is active at a time in a process.
@Suite(.serialized) struct SystemFaultsTests {
    /// A store folder inside a fresh temporary folder, and that temporary folder's path.
    private func withFolder(
        durability: Durability = .atomic,
        _ body: (StoreFolder, String) async throws -> Void
    ) async throws {
        try await withTemporaryFolder { base in
            var options = StoreFolder.Options()
            options.durability = durability
            try await body(StoreFolder(path: base.path + "/store", options: options), base.path)
        }
    }

    @Test func aPlanCountsOnlyTheCallsUnderItsFolder() async throws {
        try await withFolder { folder, base in
            try folder.write(Data("value".utf8), as: "file.bin")
            try await withTemporaryFolder { other in
                let elsewhere = StoreFolder(path: other.path + "/store")
                try elsewhere.write(Data("other".utf8), as: "file.bin")
                let plan = SystemFaultPlan(folder: base)
                try SystemFaults.run(plan) {
                    _ = try elsewhere.read("file.bin")
                    _ = try folder.read("file.bin")
                }
                #expect(plan.calls.contains(.read))
                #expect(plan.paths.allSatisfy { $0.hasPrefix(base) }, "no call of the other folder counted")
            }
        }
    }

    @Test func theCallNamedFailsWithItsErrorAndTheOthersRun() async throws {
        try await withFolder { folder, base in
            try folder.write(Data("value".utf8), as: "file.bin")
            let counted = SystemFaultPlan(folder: base)
            _ = try SystemFaults.run(counted) { try folder.read("file.bin") }
            let readCall = try #require(counted.calls.firstIndex(of: .read)) + 1
            let plan = SystemFaultPlan(folder: base, faulting: readCall, with: .fail(errno: EIO))
            let error = #expect(throws: FileSystemError.self) {
                try SystemFaults.run(plan) { try folder.read("file.bin") }
            }
            #expect(error?.reason == .ioError)
            #expect(plan.faultedCall == .read)
            #expect(try folder.read("file.bin") == Data("value".utf8), "the next read, without a plan, works")
        }
    }

    /// A read that moves fewer bytes than asked before the file's end is read on: the whole file comes back.
    @Test func aReadCutShortReadsOnToTheEnd() async throws {
        try await withFolder { folder, base in
            let contents = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
            try folder.write(contents, as: "file.bin")
            let counted = SystemFaultPlan(folder: base)
            _ = try SystemFaults.run(counted) { try folder.read("file.bin") }
            let readCall = try #require(counted.calls.firstIndex(of: .read)) + 1
            let plan = SystemFaultPlan(folder: base, faulting: readCall, with: .short)
            #expect(try SystemFaults.run(plan) { try folder.read("file.bin") } == contents)
        }
    }

    /// `readdir` returns nil both at the end and when it fails: a failure is an error, not a shorter listing.
    @Test func aListingThatFailsPartWayThrowsRatherThanLeavingNamesOut() async throws {
        try await withFolder { folder, base in
            for name in ["a", "b", "c"] { try folder.write(Data(name.utf8), as: name) }
            let counted = SystemFaultPlan(folder: base)
            #expect(try SystemFaults.run(counted) { try folder.list() }.count == 3)
            // The last `list` call is the `readdir` that finds the end.
            let lastRead = try #require(counted.calls.lastIndex(of: .list)) + 1
            let plan = SystemFaultPlan(folder: base, faulting: lastRead, with: .fail(errno: EIO))
            let error = #expect(throws: FileSystemError.self) { try SystemFaults.run(plan) { try folder.list() } }
            #expect(error?.operation == .list)
        }
    }

    /// At `.flushed`, the folder's flush after the rename is part of the promise: its failure fails the write, with
    /// the new file in place.
    @Test func aFlushedWriteWhoseFolderFlushFailsFailsWithTheFileInPlace() async throws {
        try await withFolder(durability: .flushed) { folder, base in
            try folder.write(Data("old".utf8), as: "file.bin")
            let counted = SystemFaultPlan(folder: base)
            try SystemFaults.run(counted) { try folder.write(Data("new".utf8), as: "file.bin") }
            let folderFlush = try #require(counted.calls.lastIndex(of: .sync)) + 1
            let plan = SystemFaultPlan(folder: base, faulting: folderFlush, with: .fail(errno: EIO))
            let error = #expect(throws: FileSystemError.self) {
                try SystemFaults.run(plan) { try folder.write(Data("newer".utf8), as: "file.bin") }
            }
            #expect(error?.operation == .sync)
            #expect(try folder.read("file.bin") == Data("newer".utf8))
        }
    }
}
#endif
