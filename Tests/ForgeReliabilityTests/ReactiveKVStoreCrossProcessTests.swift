import ForgeCore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// What a `ReactiveKVStore` over a `DiskKVStore` sees of the writes another process makes on the same folder.
@Suite(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform yet"))
struct ReactiveKVStoreCrossProcessTests {
    @Test func aChildProcessWritesAndTheStreamSeesItsValuesInOrderEndingWithTheLast() async throws {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        try await withTemporaryFolder { folder in
            let key = KVKey<Int>("count")
            let reactive = ReactiveKVStore(DiskKVStore(directory: .custom(folder), namespace: "shared"))
            let values = reactive.stream(key)
            let arguments = ["kv", folder.path, "shared", "count", "count", "50"]
            let result = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }
            #expect(result.status == 0)

            // Each change is read from the store when its notification arrives, so writes faster than that show
            // as their latest value: the values seen rise, and end with the child's last.
            // Bounded, so that a change never seen fails the test instead of hanging it.
            let seen = await withTaskGroup(of: [Int]?.self) { group in
                group.addTask {
                    var seen: [Int] = []
                    for await value in values {
                        guard let value else { continue }
                        seen.append(value)
                        if value == 50 { break }
                    }
                    return seen
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? []
            }
            #expect(seen == seen.sorted() && Set(seen).count == seen.count)
            #expect(seen.last == 50)
        }
    }
}
