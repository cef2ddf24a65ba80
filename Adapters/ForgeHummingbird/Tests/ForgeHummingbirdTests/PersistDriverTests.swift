import ForgeHummingbird
import ForgeStorageTesting
import Foundation
import Hummingbird
import Testing

/// The driver as `PersistDriver` documents it, on each storage: written once, run against each.
@Suite("ForgePersistDriver")
struct PersistDriverTests {
    @Test(arguments: TestStorage.available)
    func createFailsWithDuplicateWhileTheKeyHoldsALiveValue(_ storage: TestStorage) async throws {
        try await storage.withDrivers { drivers, clock in
            let persist = drivers[0]
            try await persist.create(key: "user.1", value: "Ada", expires: .seconds(60))
            await #expect(throws: PersistError.duplicate) {
                try await persist.create(key: "user.1", value: "Grace", expires: nil)
            }
            #expect(try await persist.get(key: "user.1", as: String.self) == "Ada", "the value created first stays")

            clock.advance(by: .seconds(60))
            try await persist.create(key: "user.1", value: "Grace", expires: nil)
            #expect(try await persist.get(key: "user.1", as: String.self) == "Grace", "an expired value is absent")
        }
    }

    @Test(arguments: TestStorage.available)
    func setWithoutExpiryKeepsTheLifetimeOfTheValueItReplaces(_ storage: TestStorage) async throws {
        try await storage.withDrivers { drivers, clock in
            let persist = drivers[0]
            try await persist.set(key: "counter", value: 1, expires: .seconds(10))
            clock.advance(by: .seconds(4))
            try await persist.set(key: "counter", value: 2, expires: nil)
            let read = try #require(try await persist.getWithTTL(key: "counter", as: Int.self))
            #expect(read.object == 2)
            let ttl = try #require(read.ttl)
            #expect(ttl >= .milliseconds(5_999) && ttl <= .seconds(6), "\(ttl)")
            clock.advance(by: .seconds(6))
            #expect(try await persist.get(key: "counter", as: Int.self) == nil, "it expires when the first value would")

            try await persist.set(key: "plain", value: 1, expires: nil)
            #expect(try await persist.getWithTTL(key: "plain", as: Int.self).map { $0.ttl == nil } == true)
            try await persist.set(key: "plain", value: 2, expires: .seconds(5))
            clock.advance(by: .seconds(5))
            #expect(try await persist.get(key: "plain", as: Int.self) == nil, "a set with an expiry gives one")
        }
    }

    @Test(arguments: TestStorage.available)
    func aValueOfAnotherTypeReadsAsNil(_ storage: TestStorage) async throws {
        struct Profile: Codable, Sendable, Equatable {
            var name: String
        }
        try await storage.withDrivers { drivers, _ in
            let persist = drivers[0]
            try await persist.set(key: "profile", value: Profile(name: "Ada"), expires: nil)
            #expect(try await persist.get(key: "profile", as: Int.self) == nil)
            #expect(try await persist.getWithTTL(key: "profile", as: [String].self) == nil)
            #expect(try await persist.get(key: "profile", as: Profile.self) == Profile(name: "Ada"))
        }
    }

    @Test(arguments: TestStorage.available)
    func removeForgetsTheValue(_ storage: TestStorage) async throws {
        try await storage.withDrivers { drivers, _ in
            let persist = drivers[0]
            try await persist.create(key: "token", value: "t0k3n", expires: .seconds(60))
            try await persist.remove(key: "token")
            #expect(try await persist.get(key: "token", as: String.self) == nil)
            try await persist.remove(key: "token")
            try await persist.create(key: "token", value: "again", expires: nil)
            #expect(try await persist.get(key: "token", as: String.self) == "again")
        }
    }

    @Test(arguments: TestStorage.available)
    func ofCreatesOfOneKeyAtOnceThroughTwoDriversExactlyOneSucceeds(_ storage: TestStorage) async throws {
        try await storage.withDrivers(2) { drivers, _ in
            for round in 0..<4 {
                let key = "claim.\(round)"
                let created = try await withThrowingTaskGroup(of: Int?.self) { group in
                    for task in 0..<8 {
                        let persist = drivers[task % 2]
                        group.addTask {
                            do {
                                try await persist.create(key: key, value: task, expires: .seconds(60))
                                return task
                            } catch let error as PersistError where error == .duplicate {
                                return nil
                            }
                        }
                    }
                    return try await group.reduce(into: [Int]()) { if let task = $1 { $0.append(task) } }
                }
                #expect(created.count == 1, "round \(round): tasks that created: \(created)")
                for persist in drivers {
                    #expect(try await persist.get(key: key, as: Int.self) == created.first)
                }
            }
        }
    }
}
