import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// A reclaim never removes a value set again after it was found expired, nor undoes a removal: writes and removes wait
/// for the folder's lock while the reclaim checks a file.
struct DiskKVStoreReclaimRaceTests {
    @Test func aValueSetOrRemovedWhileTheReclaimChecksItWaitsAndIsKept() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = DiskKVStore(directory: .custom(folder), namespace: "race", expiry: KVExpiry(clock: clock))
            let other = DiskKVStore(directory: .custom(folder), namespace: "race", expiry: KVExpiry(clock: clock))
            let token = KVKey<String>("token")
            let signedOut = KVKey<String>("signedOut")
            try store.set(token, value: "old", expiresAfter: .seconds(10))
            try store.set(signedOut, value: "old", expiresAfter: .seconds(10))
            clock.advance(by: .seconds(10))
            try other.set(signedOut, value: "renewed", expiresAfter: .seconds(60))

            // "Another process" sets the expired key, and removes the renewed one, while the reclaim checks them: each
            // waits for the folder's lock, and lands once the reclaim is done with the file.
            let done = DispatchGroup()
            var found: [String] = []
            let removed = try store.removeExpiredValues(at: clock.now, limit: 10) { key in
                found.append(key)
                guard key == token.key else { return }
                DispatchQueue.global()
                    .async(group: done) {
                        try? other.set(token, value: "renewed", expiresAfter: .seconds(60))
                        try? other.remove(signedOut)
                    }
            }
            done.wait()
            #expect(found == [token.key], "signedOut held a live value")
            #expect(removed == [token.key])
            #expect(store.get(token) == "renewed", "the write made during the check is kept")
            #expect(store.get(signedOut) == nil, "and the removal made then is not undone")
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
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
