import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// A server that cannot be reached: every call throws its operation's typed error, naming the key, within the
/// store's connection wait.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresCryptServerDownTests {
    @Test func everyCallFailsWithATypedErrorWithinTheConnectionWait() async throws {
        try await TestServer.withClient(configuration: try TestServer.unreachableConfiguration()) { client in
            let wait = Duration.seconds(1)
            let store = PostgresCrypt(
                client: client,
                namespace: "unreachable",
                masterKey: .symmetric(SymmetricKey(size: .bits256)),
                connectionWait: wait
            )
            let key = CryptKey<String>(key: "k")
            let clock = ContinuousClock()
            // The wait, and room for a loaded machine to notice it ran out.
            let bound = wait + .seconds(4)

            var start = clock.now
            let read = await #expect(throws: CryptStoreError.self) { try await store.get(key) }
            #expect(start.duration(to: clock.now) < bound)
            guard case .readFailed("k", let reason) = read else {
                Issue.record("expected readFailed naming the key, got \(String(describing: read))")
                return
            }
            #expect(reason.description.contains("PostgreSQL") || reason.description.contains("connection"))

            start = clock.now
            let write = await #expect(throws: CryptStoreError.self) { try await store.set("v", for: key) }
            #expect(start.duration(to: clock.now) < bound)
            #expect(
                write?.key == "k" && write?.reason != nil,
                "writeFailed naming the key: \(String(describing: write))"
            )

            start = clock.now
            let removal = await #expect(throws: CryptStoreError.self) { try await store.delete(key) }
            #expect(removal?.key == "k" && removal?.reason != nil)
            let presence = await #expect(throws: CryptStoreError.self) { try await store.contains(key) }
            #expect(presence?.key == "k" && presence?.reason != nil)
            let listing = await #expect(throws: CryptStoreError.self) { try await store.keys() }
            #expect(listing?.reason != nil)
            let removeAll = await #expect(throws: CryptStoreError.self) { try await store.deleteAll() }
            #expect(removeAll?.reason != nil)
            await #expect(throws: PostgresStoreError.self) { try await store.prepare() }
            #expect(start.duration(to: clock.now) < bound * 5)
        }
    }
}
