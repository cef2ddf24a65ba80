#if DEBUG
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
            operation("files.cache.evict.flushed", subject: nil, durability: .flushed, cacheBudget: 64) { store in
                try await store.save(Data(repeating: 0x44, count: 30), to: "fresh.bin", overwrite: true)
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
                // Each file a second older than the next, so that a cache evicts the same ones in every run (the
                // clock's tick would give files written at once the same time).
                for (age, path) in ([target] + others).enumerated() {
                    try await store.save(Data(repeating: 0x41 + UInt8(age), count: 20), to: path, overwrite: true)
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(age))],
                        ofItemAtPath: store.fileURL(for: path).path
                    )
                }
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
                        // In a cache, large enough to need room: a cache that counts less than its store holds would
                        // not make it, and go over its budget.
                        let next = Data(repeating: 0x4E, count: cacheBudget == nil ? 5 : 40)
                        try await store.save(next, to: "next.txt", overwrite: true)
                        guard try await store.load("next.txt") == next else {
                            throw SweepViolation("the next save read back wrong")
                        }
                    }
                )
            },
            promise: { folder in
                guard let cacheBudget else { return }
                let size = try await DiskFileStore(directory: .custom(folder), namespace: namespace).storedSize()
                guard size <= cacheBudget else {
                    throw SweepViolation("the cache holds \(size) bytes, over its budget of \(cacheBudget)")
                }
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
#endif
