import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A reclaim never removes a value set again after it was found expired: another process may write between the check
/// and the removal.
struct DiskKVStoreReclaimRaceTests {
    @Test func aValueSetAgainBetweenTheCheckAndTheRemovalIsKept() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "race", expiry: KVExpiry(clock: clock))
            let writer = DiskKVStore(directory: .custom(folder), namespace: "race", expiry: KVExpiry(clock: clock))
            let token = KVKey<String>("token")
            let gone = KVKey<String>("gone")
            try store.set(token, value: "old", expiresAfter: .seconds(10))
            try store.set(gone, value: "old", expiresAfter: .seconds(10))
            clock.advance(by: .seconds(10))

            var found: [String] = []
            let removed = try store.removeExpiredValues(at: clock.now, limit: 10) { key in
                found.append(key)
                // "Another process" sets the key the reclaim has just found expired (through the backend, so that
                // its write reclaims nothing itself).
                guard key == token.key else { return }
                let renewed = KVStoredValue(json: Data(#""renewed""#.utf8), expiresAtMilliseconds: 1_767_225_670_000)
                try? writer.store(renewed, named: token.key)
            }
            #expect(found.sorted() == [gone.key, token.key])
            #expect(removed == [gone.key], "only the value still expired is removed")
            #expect(store.get(token) == "renewed")
            #expect(try store.expirationDate(of: token) == clock.now.addingTimeInterval(60))
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path).sorted()
                    == [".forge-lifetimes", "token.json"]
            )
        }
    }

    @Test func theReclaimStopsAtItsLimit() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "limit", expiry: KVExpiry(clock: clock))
            for index in 0..<5 {
                try store.set(KVKey<Int>("k\(index)"), value: index, expiresAfter: .seconds(1))
            }
            clock.advance(by: .seconds(1))
            var found = 0
            let removed = try store.removeExpiredValues(at: clock.now, limit: 2) { _ in found += 1 }
            #expect(removed.count == 2)
            #expect(found == 2, "no file is looked at once the limit is met")
            let names = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
            #expect(names.filter { $0.hasSuffix(".json") }.count == 3)
        }
    }
}
