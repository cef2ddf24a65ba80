import ForgeTestSupport
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
        // Written and read as an optional, it reads as nil too (not as a stored nil), as on disk.
        try memory.set(KVKey<OneWay?>("maybe"), value: OneWay())
        #expect(memory.get(KVKey<OneWay?>("maybe")) == nil)
    }

    @Test func countAndKeysDescribeTheContents() throws {
        let memory = InMemoryKVStore()
        try memory.set(KVKey<Int>("b"), value: 1)
        try memory.set(KVKey<Int>("a"), value: 2)
        #expect(memory.count == 2)
        #expect(try memory.keys() == ["a", "b"])
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

/// A class hierarchy stored through the superclass's key.
class Person: Codable, @unchecked Sendable {
    // Unchecked: the tests never mutate an instance from two tasks.
    var name: String

    init(name: String) {
        self.name = name
    }
}

/// A subclass that encodes a field of its own beside its superclass's.
final class Manager: Person, @unchecked Sendable {
    var reports: Int

    init(name: String, reports: Int) {
        self.reports = reports
        super.init(name: name)
    }

    private enum CodingKeys: String, CodingKey { case reports }

    required init(from decoder: any Decoder) throws {
        reports = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .reports)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reports, forKey: .reports)
        try super.encode(to: encoder)
    }
}

extension InMemoryKVStoreTests {
    @Test func aSubclassWrittenThroughASuperclassKeyReadsAsTheSuperclassAsOnDisk() async throws {
        try await withTemporaryFolder { folder in
            let memory = InMemoryKVStore()
            let disk = DiskKVStore(directory: .custom(folder), namespace: "twin")
            let key = KVKey<Person>("lead")
            for store in [memory, disk] as [any KVStoring] {
                try store.set(key, value: Manager(name: "Ada", reports: 3))
            }
            let fromMemory = try #require(memory.get(key))
            let fromDisk = try #require(disk.get(key))
            #expect(type(of: fromDisk) == Person.self)
            #expect(type(of: fromMemory) == type(of: fromDisk))
            #expect(fromMemory.name == fromDisk.name)
            #expect(memory.get(KVKey<Manager>("lead"))?.reports == disk.get(KVKey<Manager>("lead"))?.reports)
        }
    }

    @Test func eachReadOfAClassIsANewInstanceAsOnDisk() throws {
        let memory = InMemoryKVStore()
        let key = KVKey<Person>("owner")
        try memory.set(key, value: Person(name: "Ada"))
        let first = try #require(memory.get(key))
        first.name = "changed without a write"
        #expect(memory.get(key)?.name == "Ada")
    }

    @Test func classInstancesInsideOptionalsArraysAndStructsAreNewOnEachReadToo() throws {
        struct Team: Codable, Sendable {
            var lead: Person
        }
        let memory = InMemoryKVStore()
        try memory.set(KVKey<Person?>("maybe"), value: Person(name: "Ada"))
        try memory.set(KVKey<[Person]>("list"), value: [Person(name: "Ada")])
        try memory.set(KVKey<Team>("team"), value: Team(lead: Person(name: "Ada")))

        memory.get(KVKey<Person?>("maybe"))??.name = "changed"
        memory.get(KVKey<[Person]>("list"))?.first?.name = "changed"
        memory.get(KVKey<Team>("team"))?.lead.name = "changed"
        #expect(memory.get(KVKey<Person?>("maybe"))??.name == "Ada")
        #expect(memory.get(KVKey<[Person]>("list"))?.first?.name == "Ada")
        #expect(memory.get(KVKey<Team>("team"))?.lead.name == "Ada")
    }
}
