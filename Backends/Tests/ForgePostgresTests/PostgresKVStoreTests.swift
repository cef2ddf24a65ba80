import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO
import Testing

/// A model value with nested and optional parts.
private struct Profile: Codable, Sendable, Equatable {
    var name: String
    var tags: [String]
    var nickname: String?
    var scores: [String: Double]
}

/// A model an older version stored, migrated to ``Profile``.
private struct ProfileV1: Codable, Sendable {
    var name: String
}

@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresKVStoreTests {
    @Test func valuesOfSeveralTypesReadBackAsWritten() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let profile = Profile(name: "Ada", tags: ["a", "b/c"], nickname: nil, scores: ["x": 0.1, "y": -2.5])
            let date = Date(timeIntervalSinceReferenceDate: 123_456.789_012)
            try await store.set(KVKey<Int>("int"), value: -42)
            try await store.set(KVKey<UInt64>("uint64"), value: .max)
            try await store.set(KVKey<Double>("double"), value: 1e300)
            try await store.set(KVKey<Bool>("bool"), value: true)
            try await store.set(KVKey<String>("string"), value: "caf\u{E9} \u{0} 😀 \"quoted\" \\")
            try await store.set(KVKey<Date>("date"), value: date)
            try await store.set(KVKey<Data>("data"), value: Data([0, 1, 2, 255]))
            try await store.set(KVKey<Profile>("profile"), value: profile)
            try await store.set(KVKey<Int?>("nil"), value: nil)

            #expect(try await store.get(KVKey<Int>("int")) == -42)
            #expect(try await store.get(KVKey<UInt64>("uint64")) == .max)
            #expect(try await store.get(KVKey<Double>("double")) == 1e300)
            #expect(try await store.get(KVKey<Bool>("bool")) == true)
            #expect(try await store.get(KVKey<String>("string")) == "caf\u{E9} \u{0} 😀 \"quoted\" \\")
            #expect(try await store.get(KVKey<Date>("date")) == date)
            #expect(try await store.get(KVKey<Data>("data")) == Data([0, 1, 2, 255]))
            #expect(try await store.get(KVKey<Profile>("profile")) == profile)
            #expect(try await store.value(for: KVKey<Int?>("nil")) == .some(nil))
            #expect(try await store.contains(KVKey<Int?>("nil")))

            try await store.set(KVKey<Int>("int"), value: 7)
            #expect(try await store.get(KVKey<Int>("int")) == 7)
        }
    }

    @Test func aMissingKeyReadsAsNil() async throws {
        try await TestServer.withStores { (stores) async throws in
            #expect(try await stores[0].get(KVKey<String>("missing")) == nil)
            #expect(try await stores[0].value(for: KVKey<String>("missing")) == nil)
            #expect(try await !stores[0].contains(KVKey<String>("missing")))
        }
    }

    @Test func aValueOfAnotherTypeReadsAsNilAndThrowsFromValueFor() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            try await store.set(KVKey<String>("k"), value: "hello")
            #expect(try await store.get(KVKey<Int>("k")) == nil)
            let error = await #expect(throws: KVStoreError.self) { try await store.value(for: KVKey<Int>("k")) }
            guard case .decodingFailed(let key, _) = error else {
                Issue.record("expected decodingFailed, got \(String(describing: error))")
                return
            }
            #expect(key == "k")
            // The value is kept, and an Int reads as a Double, as in the other stores.
            #expect(try await store.get(KVKey<String>("k")) == "hello")
            try await store.set(KVKey<Int>("n"), value: 3)
            #expect(try await store.get(KVKey<Double>("n")) == 3.0)
        }
    }

    @Test func aRenamedKeyReadsItsOlderNameAndRemovesIt() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let old = KVKey<String>("theme")
            let key = KVKey<String>("appearance", migrations: .renamed(from: "theme"))
            try await store.set(old, value: "dark")
            #expect(try await store.get(key) == "dark")
            #expect(try await store.contains(key))
            // A read never writes: the older value stays, and the first set stores under the new name.
            #expect(try await store.keys() == ["theme"])
            try await store.set(key, value: "light")
            #expect(try await store.get(key) == "light")
            try await store.remove(key)
            #expect(try await store.keys().isEmpty)
            #expect(try await !store.contains(key))
        }
    }

    @Test func aValueOfAnOlderTypeIsMigrated() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let migrating = KVMigration<Profile>
                .from(ProfileV1.self) { old in
                    Profile(name: old.name, tags: [], nickname: nil, scores: [:])
                }
            let key = KVKey<Profile>("profile", migrations: migrating)
            try await store.set(KVKey<ProfileV1>("profile"), value: ProfileV1(name: "Grace"))
            #expect(try await store.value(for: key)?.name == "Grace")
            // Without the migration the older value does not decode.
            await #expect(throws: KVStoreError.self) { try await store.value(for: key.withoutMigrations) }

            let refusing = KVKey<Int>(
                "count",
                migrations: .from(String.self) { _ in throw CocoaError(.coderInvalidValue) }
            )
            try await store.set(KVKey<String>("count"), value: "many")
            let error = await #expect(throws: KVStoreError.self) { try await store.value(for: refusing) }
            #expect(error?.key == "count")
        }
    }

    @Test func removeAllEmptiesOneNamespaceOnly() async throws {
        try await TestServer.withStores { (stores) async throws in
            let other = PostgresKVStore(client: stores[0].client, namespace: "\(stores[0].namespace)-other")
            try await stores[0].set(KVKey<Int>("shared"), value: 1)
            try await other.set(KVKey<Int>("shared"), value: 2)
            try await stores[0].set(KVKey<Int>("mine"), value: 3)

            #expect(try await stores[0].get(KVKey<Int>("shared")) == 1)
            try await stores[0].removeAll()
            #expect(try await stores[0].keys().isEmpty)
            #expect(try await other.get(KVKey<Int>("shared")) == 2)
            #expect(try await other.keys() == ["shared"])
            try await other.removeAll()
        }
    }

    @Test func keysAreCanonicalAndSortedAsSwiftSortsThem() async throws {
        try await TestServer.withStores { (stores) async throws in
            let store = stores[0]
            let names = ["b", "a", "Z", "e\u{301}t\u{E9}", "\u{E4}", "日本", "a.b", "😀", "A", "_", "~", "ﬀ", ""]
            for name in names { try await store.set(KVKey<Int>(name), value: 1) }
            let expected = Set(names.map(\.precomposedStringWithCanonicalMapping)).sorted()
            let keys = try await store.keys()
            #expect(keys == expected)
            #expect(keys.map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) })
            // The decomposed and precomposed forms name one key.
            #expect(try await store.get(KVKey<Int>("\u{E9}t\u{E9}")) == 1)
            try await store.set(KVKey<Int>("\u{E9}t\u{E9}"), value: 2)
            #expect(try await store.get(KVKey<Int>("e\u{301}te\u{301}")) == 2)
        }
    }

    @Test func twoStoresOnTwoClientsSeeEachOthersWrites() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let key = KVKey<String>("greeting")
            try await stores[0].set(key, value: "hello")
            #expect(try await stores[1].get(key) == "hello")
            try await stores[1].set(key, value: "bye")
            #expect(try await stores[0].get(key) == "bye")
            try await stores[1].remove(key)
            #expect(try await stores[0].get(key) == nil)
        }
    }

    @Test func concurrentWritesOfOneKeyLeaveOneWholeValue() async throws {
        try await TestServer.withStores(2) { (stores) async throws in
            let key = KVKey<Profile>("contended")
            let written = (0..<40)
                .map { index in
                    Profile(
                        name: "writer \(index)",
                        tags: Array(repeating: "tag \(index)", count: 50),
                        nickname: index.isMultiple(of: 2) ? "even" : nil,
                        scores: ["index": Double(index)]
                    )
                }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, value) in written.enumerated() {
                    let store = stores[index % 2]
                    group.addTask { try await store.set(key, value: value) }
                }
                try await group.waitForAll()
            }
            let stored = try #require(try await stores[0].get(key))
            #expect(written.contains(stored))
            #expect(try await stores[1].get(key) == stored)
        }
    }

    @Test func aNameSQLReservesIsATableNameLikeAnyOther() async throws {
        try await TestServer.withStores(tableName: "user") { stores in
            try await stores[0].set(KVKey<Int>("k"), value: 1)
            #expect(try await stores[0].value(for: KVKey<Int>("k")) == 1)
            #expect(try await stores[0].keys() == ["k"])
            try await stores[0].remove(KVKey<Int>("k"))
            #expect(try await stores[0].keys().isEmpty)
        }
    }

    @Test func aRoleThatMayOnlyReadAndWriteRowsUsesATableAnAdministratorMade() async throws {
        let table = "rows_only_\(UUID().uuidString.prefix(8).lowercased())"
        try await TestServer.withStores(tableName: table) { stores in
            try await stores[0].prepare()
            try await TestServer.withClient { admin in
                _ = try await admin.query(
                    "DO $$ BEGIN CREATE ROLE forge_rows LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
                )
                _ = try await admin.query(
                    PostgresQuery(unsafeSQL: "GRANT SELECT, INSERT, UPDATE, DELETE ON \(table) TO forge_rows")
                )
            }
            let rowsOnly = try TestServer.configuration(username: "forge_rows")
            try await TestServer.withClient(configuration: rowsOnly) { client in
                let store = PostgresKVStore(client: client, namespace: stores[0].namespace, tableName: table)
                try await store.set(KVKey<Int>("k"), value: 7)
                #expect(try await stores[0].value(for: KVKey<Int>("k")) == 7)
            }
        }
    }

    @Test func aCallCancelledWhileItWaitsForTheServerEndsAtOnce() async throws {
        try await TestServer.withClient(configuration: try TestServer.unreachableConfiguration()) { client in
            let store = PostgresKVStore(client: client, namespace: "unreachable", connectionWait: .seconds(30))
            let clock = ContinuousClock()
            let start = clock.now
            let call = Task { try await store.get(KVKey<Int>("k")) }
            // Cancelled once it waits for a connection (sooner, it fails the same way, only earlier).
            try await Task.sleep(for: .milliseconds(300))
            call.cancel()
            await #expect(throws: (any Error).self) { try await call.value }
            #expect(clock.now - start < .seconds(10), "the call ended with its caller, not after its 30 s wait")
        }
    }

    @Test func anUnreachableServerFailsWithATypedErrorInTime() async throws {
        try await TestServer.withClient(configuration: try TestServer.unreachableConfiguration()) { client in
            let store = PostgresKVStore(client: client, namespace: "unreachable", connectionWait: .seconds(2))
            let clock = ContinuousClock()
            let start = clock.now

            let read = await #expect(throws: KVStoreError.self) { try await store.get(KVKey<Int>("k")) }
            guard case .readFailed(let key, _) = read else {
                Issue.record("expected readFailed, got \(String(describing: read))")
                return
            }
            #expect(key == "k")
            let write = await #expect(throws: KVStoreError.self) { try await store.set(KVKey<Int>("k"), value: 1) }
            #expect(write?.reason != nil)
            await #expect(throws: KVStoreError.self) { try await store.keys() }
            await #expect(throws: PostgresStoreError.self) { try await store.prepare() }
            #expect(start.duration(to: clock.now) < .seconds(30))
        }
    }

    @Test func aTableNameThatIsNotAPlainIdentifierIsRefused() async throws {
        try await TestServer.withClient { client in
            let store = PostgresKVStore(client: client, namespace: "n", tableName: "kv; DROP TABLE forge_kv")
            let error = await #expect(throws: KVStoreError.self) { try await store.set(KVKey<Int>("k"), value: 1) }
            #expect(error?.reason?.description.contains("not a plain identifier") == true)
        }
    }
}
