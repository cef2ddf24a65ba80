import ForgeCore
import ForgeFileStore
import Foundation

/// The `DiskFileStore` operations the sweep fails: a save of a small file and of a large one, a `.flushed` save, a
/// delete, `deleteAll`, and a save to a bounded cache that must evict a file first.
enum FileOperations {
    static let namespace = "documents"
    static let target = "notes/today.txt"
    static let others = ["notes/yesterday.txt", "cover.png"]
    static let largeSize = DiskFileStore.largeFileSize + 1

    static var all: [SweptOperation] {
        [
            operation("files.save.small", subject: target) { store in
                try await store.save(Data("a new day".utf8), to: target, overwrite: true)
            },
            operation("files.save.large", subject: target) { store in
                try await store.save(Data(repeating: 0x5A, count: largeSize), to: target, overwrite: true)
            },
            operation("files.save.flushed", subject: target, durability: .flushed) { store in
                try await store.save(Data("a new day, flushed".utf8), to: target, overwrite: true)
            },
            operation("files.delete", subject: target) { store in try await store.delete(target) },
            operation("files.deleteAll", subject: nil) { store in try await store.deleteAll() },
            operation("files.cache.evict", subject: nil, cacheBudget: 64) { store in
                // The seed holds 60 bytes of a 64-byte budget: this save evicts the least recently used files first.
                try await store.save(Data(repeating: 0x43, count: 30), to: "fresh.bin", overwrite: true)
            },
        ]
    }

    /// An operation on a folder holding the target and two other files, through a bounded cache of `cacheBudget`
    /// bytes when one is given.
    private static func operation(
        _ name: String,
        subject: String?,
        durability: Durability = .atomic,
        cacheBudget: Int? = nil,
        _ run: @escaping @Sendable (any FileStoring) async throws -> Void
    ) -> SweptOperation {
        SweptOperation(
            name: name,
            subject: subject,
            removesPart: cacheBudget != nil,
            seed: { folder in
                let store = DiskFileStore(directory: .custom(folder), namespace: namespace)
                await StoreFolder.leftoverSweepsFinished()
                try await store.save(Data(repeating: 0x41, count: 20), to: target, overwrite: true)
                for path in others { try await store.save(Data(repeating: 0x42, count: 20), to: path, overwrite: true) }
            },
            open: { folder in
                let disk = DiskFileStore(directory: .custom(folder), namespace: namespace, durability: durability)
                await StoreFolder.leftoverSweepsFinished()
                let store: any FileStoring = cacheBudget.map { disk.boundedCache(maxBytes: $0) } ?? disk
                // A first call: a cache reads what the store holds.
                _ = try await store.totalSize()
                return SweptOperation.OpenedStore(
                    run: { try await run(store) },
                    contents: { try await contents(of: disk) },
                    next: {
                        try await store.save(Data("after".utf8), to: "next.txt", overwrite: true)
                        guard try await store.load("next.txt") == Data("after".utf8) else {
                            throw SweepViolation("the next save read back wrong")
                        }
                    }
                )
            }
        )
    }

    /// Every file the store lists, with its size and a digest of its bytes.
    private static func contents(of store: DiskFileStore) async throws -> [String: String] {
        var contents: [String: String] = [:]
        for file in try await store.allFiles() {
            let data = try await store.load(file.path)
            contents[file.path] = "\(data.count) bytes, \(data.reduce(0) { ($0 &* 31) &+ Int($1) })"
        }
        return contents
    }
}
