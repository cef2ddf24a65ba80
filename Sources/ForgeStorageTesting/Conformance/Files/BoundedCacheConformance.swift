public import ForgeFileStore
internal import Foundation
public import Testing

/// The promise a bounded cache keeps on every store it is built on: with saves, loads, deletes and `deleteAll()`
/// running at once, the store ends within its budget, and the cache counts exactly what the store holds.
///
/// Run it on a fresh, empty store of yours that conforms to `FileBackend`, with a few seeds:
///
/// ```swift
/// @Test(arguments: [1, 2, 3] as [UInt64])
/// func keepsItsBudget(seed: UInt64) async {
///     await BoundedCacheConformance.run(seed: seed) { MyFileStore() }
/// }
/// ```
///
/// Each round makes a store, wraps it as a cache of 1,000 bytes and 8 files, and runs eight tasks at once, each a
/// sequence of calls drawn from `seed` (the order in which the tasks' calls interleave is the scheduler's). Once they
/// have returned, the store holds no more than the budget and the cache's count matches the store's; then saves made
/// one at a time keep the budget too. A save may fail with `outOfSpace` while others hold the room it needs, a load
/// or delete with `notFound`, and a save that may not replace with `alreadyExists`: any other error is an issue.
public enum BoundedCacheConformance {
    /// The budget of the caches the rounds make.
    static let maxBytes = 1_000
    /// The most files the caches the rounds make may hold.
    static let maxFiles = 8

    /// Runs `rounds` rounds, each on a fresh store from `makeStore`, recording an issue for each broken promise.
    ///
    /// - Parameters:
    ///   - seed: Draws the calls each task makes.
    ///   - rounds: How many stores to run the tasks on.
    ///   - makeStore: Makes a fresh, empty store.
    ///   - sourceLocation: Where to report an issue; the caller's line by default.
    public static func run<Store: FileBackend>(
        seed: UInt64,
        rounds: Int = 10,
        makeStore: () async throws -> Store,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        var random = SeededRandom(seed: seed)
        for round in 0..<rounds {
            do {
                let cache = try await makeStore().boundedCache(maxBytes: maxBytes, maxFiles: maxFiles)
                let plans = (0..<8).map { _ in callPlan(using: &random) }
                await withTaskGroup(of: Void.self) { group in
                    for plan in plans {
                        group.addTask { await perform(plan, on: cache, sourceLocation: sourceLocation) }
                    }
                }
                try await expectWithinBudgetAndCounted(cache, "round \(round), once the tasks returned", sourceLocation)
                for index in 0..<6 {
                    try await cache.save(Data(repeating: 1, count: 300), to: "after/\(index)")
                    try await expectWithinBudgetAndCounted(cache, "round \(round), save \(index) alone", sourceLocation)
                }
            } catch {
                Issue.record(error, "round \(round) of seed \(seed)", sourceLocation: sourceLocation)
            }
        }
    }

    /// One call of a task.
    private enum Call: Sendable {
        case save(path: String, size: Int, replacing: Bool)
        case load(path: String)
        case delete(path: String)
        case deleteAll
    }

    /// A task's calls, drawn from `random`: mostly saves and loads of a dozen paths, a delete now and then, and
    /// rarely a `deleteAll()`.
    private static func callPlan(using random: inout SeededRandom) -> [Call] {
        (0..<40)
            .map { _ in
                let path = "f\(Int.random(in: 0..<12, using: &random))"
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<50: return .save(path: path, size: Int.random(in: 0...400, using: &random), replacing: true)
                case 50..<55: return .save(path: path, size: Int.random(in: 0...400, using: &random), replacing: false)
                case 55..<88: return .load(path: path)
                case 88..<98: return .delete(path: path)
                default: return .deleteAll
                }
            }
    }

    /// Makes `calls` on `cache`, recording an issue for an error no call of a cache under load may throw.
    private static func perform(
        _ calls: [Call],
        on cache: some AsyncFileStoring,
        sourceLocation: SourceLocation
    ) async {
        for call in calls {
            do {
                switch call {
                case .save(let path, let size, let replacing):
                    try await cache.save(
                        Data(repeating: UInt8(size % 256), count: size),
                        to: path,
                        overwrite: replacing
                    )
                case .load(let path): _ = try await cache.load(path)
                case .delete(let path): try await cache.delete(path)
                case .deleteAll: try await cache.deleteAll()
                }
            } catch FileStoreError.writeFailed(_, .outOfSpace), FileStoreError.notFound, FileStoreError.alreadyExists {
                continue
            } catch {
                Issue.record(error, "\(call)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Expects the store within the budget and the cache's count to be what the store holds.
    private static func expectWithinBudgetAndCounted<Store: FileBackend>(
        _ cache: BoundedFileStore<Store>,
        _ context: String,
        _ sourceLocation: SourceLocation
    ) async throws {
        let bytes = try await cache.base.storedSize()
        let files = try await cache.base.allFiles().count
        #expect(bytes <= maxBytes && files <= maxFiles, "\(context): \(bytes) bytes", sourceLocation: sourceLocation)
        let counted = cache.counted
        #expect(counted?.bytes == bytes, "\(context): bytes counted", sourceLocation: sourceLocation)
        #expect(counted?.files == files, "\(context): files counted", sourceLocation: sourceLocation)
    }
}
