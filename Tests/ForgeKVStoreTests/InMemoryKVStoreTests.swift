import Foundation
import Testing

@testable import ForgeKVStore

struct InMemoryKVStoreTests {
    @Test func readsWithAnotherTypeBehaveAsOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let memory = InMemoryKVStore()
            let disk = DiskKVStore(directory: .custom(folder), namespace: "twin")
            for store in [memory, disk] as [any KVStoring] {
                try store.set(KVKey<Int>("n"), value: 3)
                try store.set(KVKey<[Int]>("list"), value: [1, 2])
                try store.set(KVKey<Int?>("maybe"), value: 5)
            }
            #expect(memory.get(KVKey<Double>("n")) == disk.get(KVKey<Double>("n")))
            #expect(memory.get(KVKey<[Double]>("list")) == disk.get(KVKey<[Double]>("list")))
            #expect(memory.get(KVKey<Int>("maybe")) == disk.get(KVKey<Int>("maybe")))
            #expect(memory.get(KVKey<String>("n")) == disk.get(KVKey<String>("n")))
            #expect(memory.get(KVKey<Double>("n")) == 3.0)
        }
    }

    @Test func keepsWhatTheEncodingKeepsAsADiskStoreWould() async throws {
        try await withTemporaryFolder { folder in
            let memory = InMemoryKVStore()
            let disk = DiskKVStore(directory: .custom(folder), namespace: "twin")
            let value = LossyValue(kept: "kept", dropped: "dropped")
            try memory.set(KVKey<LossyValue>("v"), value: value)
            try disk.set(KVKey<LossyValue>("v"), value: value)
            #expect(memory.get(KVKey<LossyValue>("v")) == disk.get(KVKey<LossyValue>("v")))
            #expect(memory.get(KVKey<LossyValue>("v"))?.dropped == nil)
        }
    }

    @Test func valuesThatDoNotDecodeReadAsNilAsOnDisk() throws {
        let memory = InMemoryKVStore()
        try memory.set(KVKey<OneWay>("v"), value: OneWay())
        #expect(memory.contains(KVKey<OneWay>("v")))
        #expect(memory.get(KVKey<OneWay>("v")) == nil)
    }

    @Test func countAndKeysDescribeTheContents() throws {
        let memory = InMemoryKVStore()
        try memory.set(KVKey<Int>("b"), value: 1)
        try memory.set(KVKey<Int>("a"), value: 2)
        #expect(memory.count == 2)
        #expect(memory.keys == ["a", "b"])
    }

    @Test func storesAreIndependent() throws {
        let first = InMemoryKVStore()
        let second = InMemoryKVStore()
        try first.set(KVKey<Int>("k"), value: 1)
        #expect(second.get(KVKey<Int>("k")) == nil)
    }
}

/// Encodes only one of its two fields, as a type with a transient property does.
private struct LossyValue: Codable, Sendable, Equatable {
    var kept: String
    var dropped: String?

    enum CodingKeys: String, CodingKey { case kept }
}

/// Encodes fine but can never be decoded, so a disk store would read nil after storing it.
private struct OneWay: Codable, Sendable, Equatable {
    struct Refused: Error {}
    init() {}
    init(from decoder: any Decoder) throws { throw Refused() }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("one way")
    }
}
