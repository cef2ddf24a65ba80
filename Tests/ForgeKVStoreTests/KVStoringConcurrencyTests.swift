import ForgeKVStore
import Foundation
import Testing

/// Many tasks hammering one store with every call at once, run against each store the package ships.
///
/// Also run under ThreadSanitizer (`swift test --sanitize=thread`), which reports any data race.
@Suite("KVStoring under concurrency")
struct KVStoringConcurrencyTests {
    /// A value that shows whether it was read whole: `count` copies of one number.
    private static func value(_ number: Int) -> [Int] {
        Array(repeating: number, count: 64)
    }

    private static func isWhole(_ value: [Int]) -> Bool {
        value.count == 64 && Set(value).count == 1
    }

    @Test(arguments: KVStoreKind.allCases)
    func mixedCallsFromManyTasksReadOnlyWholeValues(backend: KVStoreKind) async throws {
        try await backend.withStore { store in
            let keys = (0..<6).map { KVKey<[Int]>("stress.key\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<12 {
                    group.addTask {
                        for step in 0..<100 {
                            let key = keys[(task &* 7 &+ step) % keys.count]
                            switch (task &+ step &* 3) % 10 {
                            case 0..<4:
                                try store.set(key, value: Self.value(task * 1_000 + step))
                            case 4..<8:
                                if let read = store.get(key) { #expect(Self.isWhole(read), "torn read \(read)") }
                            case 8:
                                try store.remove(key)
                            default:
                                if step % 6 == 0 { try store.removeAll() } else { _ = store.contains(key) }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (index, key) in keys.enumerated() {
                try store.set(key, value: Self.value(index))
                #expect(store.get(key) == Self.value(index))
            }
        }
    }

    @Test(arguments: [KVStoreKind.reactiveOverMemory, .reactiveOverDisk])
    func streamsSeeWholeValuesAndEndOnTheLastWrite(backend: KVStoreKind) async throws {
        try await backend.withStore { store in
            let reactive = try #require(store as? ReactiveKVStore)
            let key = KVKey<[Int]>("stress.observed")
            let last = Self.value(-1)
            let streams = (0..<4).map { _ in reactive.stream(key) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for stream in streams {
                    group.addTask {
                        for await value in stream {
                            if let value { #expect(Self.isWhole(value), "torn value \(value)") }
                            if value == last { return }
                        }
                        Issue.record("the stream ended before the last write")
                    }
                }
                try await withThrowingTaskGroup(of: Void.self) { writers in
                    for task in 0..<8 {
                        writers.addTask {
                            for step in 0..<100 {
                                if step % 25 == 24 {
                                    try reactive.remove(key)
                                } else if step % 40 == 39 {
                                    try reactive.removeAll()
                                } else {
                                    try reactive.set(key, value: Self.value(task * 1_000 + step))
                                }
                            }
                        }
                    }
                    try await writers.waitForAll()
                }
                try reactive.set(key, value: last)
                try await group.waitForAll()
            }
            #expect(reactive.get(key) == last)
        }
    }
}
