import ForgeFileStore
import Foundation
import Testing

/// Many tasks hammering one store with every call at once, run against each store the package ships.
///
/// Also run under ThreadSanitizer (`swift test --sanitize=thread`), which reports any data race.
@Suite("FileStoring under concurrency")
struct FileStoringConcurrencyTests {
    /// Contents that show whether they were read whole: 4 KB of one byte.
    private static func contents(_ number: Int) -> Data {
        Data(repeating: UInt8(truncatingIfNeeded: number), count: 4_096)
    }

    private static func isWhole(_ data: Data) -> Bool {
        data.count == 4_096 && Set(data).count == 1
    }

    @Test(arguments: FileStoreKind.allCases)
    func mixedCallsFromManyTasksReadOnlyWholeFiles(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            let paths = ["a.bin", "docs/b.bin", "docs/c.bin", "docs/deep/d.bin", "e/f/g/h.bin"]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<12 {
                    group.addTask {
                        for step in 0..<120 {
                            let path = paths[(task &* 7 &+ step) % paths.count]
                            try await Self.step((task &+ step &* 3) % 12, on: path, in: store, number: task + step)
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (index, path) in paths.enumerated() {
                try await store.save(Self.contents(index), to: path)
                #expect(try await store.load(path) == Self.contents(index))
            }
            #expect(try await store.totalSize() == paths.count * 4_096)
        }
    }

    /// One call on `path`: the failures that a concurrent call explains are expected, any other is not.
    private static func step(_ kind: Int, on path: String, in store: any FileStoring, number: Int) async throws {
        do {
            switch kind {
            case 0..<3:
                try await store.save(contents(number), to: path)
            case 3:
                try await store.save(contents(number), to: path, overwrite: false)
            case 4..<7:
                let data = try await store.load(path)
                #expect(isWhole(data), "torn read of \(path): \(data.count) bytes")
            case 7:
                try await store.delete(path)
            case 8:
                for entry in try await store.list(in: "docs") { #expect(entry.hasPrefix("docs/")) }
            case 9:
                let size = try await store.totalSize()
                #expect(size >= 0 && size % 4_096 == 0, "total size \(size) counts a partial file")
            case 10:
                _ = store.exists(path)
            default:
                if number % 4 == 0 { try await store.deleteAll() }
            }
        } catch FileStoreError.notFound, FileStoreError.alreadyExists {
            // Another task deleted the file, or saved it first.
        }
    }
}
