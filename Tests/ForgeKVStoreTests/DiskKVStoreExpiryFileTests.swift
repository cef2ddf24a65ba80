import ForgeKVStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// How a lifetime is kept in a key's file: a first line before the usual contents, only for a value that has one, read
/// by every instance; a file an older version wrote reads as before; a damaged line reads as a corrupt file.
struct DiskKVStoreExpiryFileTests {
    private let token = KVKey<String>("session.token")

    /// A store on `folder` whose lifetimes run on `clock`.
    private func makeStore(in folder: URL, clock: ManualExpiryClock) -> DiskKVStore {
        DiskKVStore(directory: .custom(folder), namespace: "sessions", expiry: KVExpiry(clock: clock))
    }

    /// The contents of `key`'s file in `store`.
    private func contents(of key: KVKey<String>, in store: DiskKVStore) throws -> String {
        String(decoding: try Data(contentsOf: try #require(store.fileURL(for: key))), as: UTF8.self)
    }

    /// The names of the key files in `store`'s folder: the `.forge-lifetimes` index beside them left out.
    private func keyFiles(of store: DiskKVStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path).filter { $0.hasSuffix(".json") }
    }

    @Test func aValueWithALifetimeIsWrittenAfterAHeaderAndOneWithoutAsBefore() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
            #expect(try contents(of: token, in: store) == "#expires 1767225660000\n\"t0k3n\"")
            try store.set(token, value: "plain")
            #expect(
                try contents(of: token, in: store) == "\"plain\"",
                "byte for byte what a store wrote before lifetimes"
            )
        }
    }

    @Test func aFileWrittenByAnOlderVersionStillReads() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try FileManager.default.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
            try Data("\"old\"".utf8).write(to: try #require(store.fileURL(for: token)))

            #expect(store.get(token) == "old")
            #expect(try store.expirationDate(of: token) == nil)
            #expect(store.contains(token))
            #expect(try store.keys() == [token.key])
            clock.advance(by: .seconds(86_400 * 365))
            #expect(store.get(token) == "old", "a file without a header never expires")
            #expect(try store.reclaimExpiredValues(limit: 10) == 0)
        }
    }

    @Test func aHeaderWrittenByOneInstanceIsReadByAnother() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            try makeStore(in: folder, clock: clock).set(token, value: "shared", expiresAfter: .seconds(30))
            let second = makeStore(in: folder, clock: clock)
            #expect(second.get(token) == "shared")
            #expect(try second.expirationDate(of: token) == clock.now.addingTimeInterval(30))
            clock.advance(by: .seconds(30))
            #expect(second.get(token) == nil)
            #expect(second.contains(token) == false)
        }
    }

    @Test func aLongKeysEnvelopeFollowsTheHeaderAndIsFound() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            let long = KVKey<String>(String(repeating: "a very long key ", count: 30))
            #expect(store.fileURL(for: long) == nil, "the key's file name is shortened with a hash")
            try store.set(long, value: "enveloped", expiresAfter: .seconds(10))

            let file = try #require(try keyFiles(of: store).first)
            let data = try Data(contentsOf: store.folderURL.appendingPathComponent(file))
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("#expires 1767225610000\n{\"key\":"))

            let second = makeStore(in: folder, clock: clock)
            #expect(second.get(long) == "enveloped")
            #expect(second.contains(long))
            #expect(try second.keys() == [long.key])
            try second.set(long, value: "replaced", lifetime: .unchanged)
            #expect(try keyFiles(of: store) == [file], "same slot")
            clock.advance(by: .seconds(10))
            #expect(store.get(long) == nil)
            #expect(try store.keys() == [])
            #expect(try store.reclaimExpiredValues(limit: 10) == 1)
            #expect(try keyFiles(of: store) == [])
        }
    }

    @Test func aDamagedHeaderReadsAsNilAndTheNextSetRepairsIt() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualExpiryClock()
            let store = makeStore(in: folder, clock: clock)
            try store.set(token, value: "t0k3n", expiresAfter: .seconds(60))
            let file = try #require(store.fileURL(for: token))
            try Data("#expires soon\n\"t0k3n\"".utf8).write(to: file)

            #expect(store.get(token) == nil)
            #expect(throws: KVStoreError.self, "value(for:) throws as for any corrupt file") {
                try store.value(for: token)
            }
            #expect(store.contains(token), "a damaged file is there, as a corrupt one is")
            #expect(try store.keys() == [token.key])
            #expect(try store.reclaimExpiredValues(limit: 10) == 0, "a damaged file is not known to have expired")

            try store.set(token, value: "repaired", expiresAfter: .seconds(60))
            #expect(store.get(token) == "repaired")
            #expect(try contents(of: token, in: store) == "#expires 1767225660000\n\"repaired\"")
        }
    }
}
