internal import ForgeKVStore
internal import Foundation
internal import Testing

/// The checks of `setIfAbsent(_:value:lifetime:)` and `remainingLifetime(of:)`: what a session's driver, a lock or a
/// job's claim builds on.
extension ExpiryConformance {
    /// The checks of this file, in the suite's order.
    static var setIfAbsentChecks: [Check] {
        [
            Check(
                "setIfAbsent stores where nothing is, keeps a value that has not expired, and replaces one that has",
                setIfAbsentStoresOnlyWhereNothingLives
            ),
            Check(
                "of many tasks that set one key if absent at once, exactly one stores its value",
                oneOfManyTasksStores
            ),
            Check(
                "of two instances that set one key if absent at once, exactly one stores its value",
                unmetNeed: { $0.otherInstance == nil ? "the subject has no second instance" : nil },
                oneOfTwoInstancesStores
            ),
            Check("the remaining lifetime counts down by the store's clock, to zero", remainingLifetimeCountsDown),
        ]
    }

    private static func setIfAbsentStoresOnlyWhereNothingLives(_ subject: Subject) async throws {
        let store = subject.store
        let start = subject.clock.now
        #expect(try await store.setIfAbsent(token, value: "first", lifetime: .after(.seconds(10))))
        #expect(try await store.get(token) == "first")
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(10)))

        #expect(try await store.setIfAbsent(token, value: "second", lifetime: .forever) == false)
        #expect(try await store.get(token) == "first", "a value that has not expired stays, and so does its lifetime")
        #expect(milliseconds(try await store.expirationDate(of: token)) == milliseconds(start.addingTimeInterval(10)))

        subject.clock.advance(by: .seconds(10))
        #expect(try await store.setIfAbsent(token, value: "third", lifetime: .unchanged), "an expired value is absent")
        #expect(try await store.get(token) == "third")
        #expect(try await store.expirationDate(of: token) == nil, "unchanged: there was no live lifetime to keep")

        try await store.set(other, value: "plain")
        #expect(try await store.setIfAbsent(other, value: "replaced", lifetime: .after(.seconds(1))) == false)
        #expect(try await store.get(other) == "plain", "a value without a lifetime never expires, and stays")

        // A value of another type is there: it is kept, even though it does not decode as the key's type.
        let number = KVKey<Int>(third.key)
        try await store.set(number, value: 7)
        #expect(try await store.setIfAbsent(third, value: "text", lifetime: .forever) == false)
        #expect(try await store.get(number) == 7)

        #expect(try await store.keys() == [other.key, third.key, token.key])
    }

    private static func oneOfManyTasksStores(_ subject: Subject) async throws {
        let store = subject.store
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for task in 0..<16 {
                group.addTask {
                    (task, try await store.setIfAbsent(token, value: "task \(task)", lifetime: .after(.seconds(60))))
                }
            }
            return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        let winners = results.filter(\.1).map(\.0)
        #expect(winners.count == 1, "tasks that stored: \(winners)")
        if let winner = winners.first { #expect(try await store.get(token) == "task \(winner)") }
    }

    private static func oneOfTwoInstancesStores(_ subject: Subject) async throws {
        let instances = [subject.store, try #require(subject.otherInstance)]
        for round in 0..<8 {
            let key = KVKey<String>("forge.expiry.claim.\(round)")
            let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for task in 0..<8 {
                    let store = instances[task % 2]
                    group.addTask {
                        (task, try await store.setIfAbsent(key, value: "task \(task)", lifetime: .after(.seconds(60))))
                    }
                }
                return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
            }
            let winners = results.filter(\.1).map(\.0)
            #expect(winners.count == 1, "round \(round): tasks that stored: \(winners)")
            if let winner = winners.first {
                #expect(try await instances[0].get(key) == "task \(winner)")
                #expect(try await instances[1].get(key) == "task \(winner)")
            }
        }
    }

    private static func remainingLifetimeCountsDown(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
        try await store.set(other, value: "plain")
        // The clock may read between two whole milliseconds, and a lifetime ends on one, rounded up, and the time left
        // is rounded down: up to 1 ms less is right, and never more than the lifetime.
        let full = try #require(try await store.remainingLifetime(of: token))
        #expect(full >= .milliseconds(59_999) && full <= .seconds(60), "\(full)")
        #expect(try await store.remainingLifetime(of: other) == nil, "a value without a lifetime has none")
        #expect(try await store.remainingLifetime(of: third) == nil, "nor has a key that holds nothing")
        subject.clock.advance(by: .milliseconds(59_250))
        let left = try #require(try await store.remainingLifetime(of: token))
        #expect(left >= .milliseconds(749) && left <= .milliseconds(750), "\(left)")
        subject.clock.advance(by: .seconds(1))
        #expect(try await store.remainingLifetime(of: token) == nil, "an expired value holds nothing")
    }
}
