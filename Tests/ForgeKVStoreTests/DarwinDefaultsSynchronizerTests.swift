import ForgeCore
import Foundation
import Testing

@testable import ForgeKVStore

/// The synchronizer of Apple platforms, run on every platform: it only runs the store's reads and writes, and tells of
/// the system's notice of a change made through the store's defaults.
struct DarwinDefaultsSynchronizerTests {
    /// Runs `body` with a fresh suite and a synchronizer of it, and removes the suite afterwards.
    private func withSuite(_ body: (DarwinDefaultsSynchronizer, UserDefaults, String) throws -> Void) throws {
        let suite = "forge.tests.defaults.darwin.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        try body(DarwinDefaultsSynchronizer(defaults: defaults, domainName: suite), defaults, suite)
    }

    @Test func readsAndWritesRunTheirBodiesAndAFlushHasNothingToDo() throws {
        try withSuite { synchronizer, defaults, _ in
            synchronizer.write { defaults.set(3, forKey: "count") }
            #expect(synchronizer.read { defaults.integer(forKey: "count") } == 3)
            try synchronizer.flush()
        }
    }

    @Test func removeDomainRemovesEveryKeyOfTheDomainAndNoOther() throws {
        try withSuite { synchronizer, defaults, _ in
            try withSuite { _, otherDefaults, _ in
                defaults.set(1, forKey: "a")
                defaults.set("b", forKey: "b")
                otherDefaults.set(2, forKey: "a")
                try synchronizer.removeDomain()
                #expect(defaults.object(forKey: "a") == nil)
                #expect(defaults.object(forKey: "b") == nil)
                #expect(otherDefaults.integer(forKey: "a") == 2)
            }
        }
    }

    @Test func theNoticeOfAChangeThroughTheDefaultsIsToldUntilTheObservationEnds() throws {
        try withSuite { synchronizer, defaults, _ in
            try withSuite { _, otherDefaults, _ in
                let told = LockedState(0)
                let observation = synchronizer.observeOutsideChanges { told.withLock { $0 += 1 } }
                // What the system posts after a change through the defaults; on Linux nothing posts it by itself.
                NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
                NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: otherDefaults)
                #expect(told.withLock { $0 } == 1)
                observation.end()
                NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
                #expect(told.withLock { $0 } == 1)
            }
        }
    }
}
