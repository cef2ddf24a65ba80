import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// `DiskKVStore.setIfAbsent` between processes: two servers on one folder claiming the same keys at once.
struct DiskKVStoreSetIfAbsentCrossProcessTests {
    @Test func ofTwoProcessesClaimingTheSameKeysEachKeyGoesToExactlyOne() async throws {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        try await withTemporaryFolder { folder in
            let count = 200
            // Both children run at once, each through every key: whichever order the system runs them in, each key
            // must be stored by one of them and refused to the other.
            let results = try await withThrowingTaskGroup(of: (String, Int32, String).self) { group in
                for tag in ["first", "second"] {
                    group.addTask {
                        let arguments = ["kv", folder.path, "claims", "claim", "job", "\(count)", tag]
                        let result = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }
                        return (tag, result.status, result.output)
                    }
                }
                return try await group.reduce(into: [(String, Int32, String)]()) { $0.append($1) }
            }
            var storedByTag: [String: Int] = [:]
            for (tag, status, output) in results {
                #expect(status == 0, "\(tag) ended with \(status)")
                storedByTag[tag] = Int(output.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(storedByTag.values.reduce(0, +) == count, "claims won: \(storedByTag)")

            let store = DiskKVStore(directory: .custom(folder), namespace: "claims")
            var heldByTag: [String: Int] = [:]
            for index in 0..<count {
                let holder = try #require(store.get(KVKey<String>("job.\(index)")), "job.\(index) was claimed by none")
                heldByTag[holder, default: 0] += 1
            }
            #expect(heldByTag == storedByTag, "each process holds the keys it said it stored")
        }
    }
}
