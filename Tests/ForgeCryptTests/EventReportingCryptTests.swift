import ForgeCore
import ForgeCrypt
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reportingEvents(label:to:)` on secret stores: the wrapped stores pass both suites as the stores do, and no event
/// holds a key name, a secret, a secret's length or an error naming the key.
struct EventReportingCryptTests {
    private static let token = CryptKey<String>(key: "api.token.of-alice")
    private static let secret = "correct-horse-battery"

    // MARK: - The suites

    @Test func aReportingMemoryStorePassesBothSuites() async {
        await CryptStoringConformance.run {
            CryptStoringConformance.Subject(
                InMemoryCrypt().reportingEvents { _ in },
                neighbour: InMemoryCrypt().reportingEvents { _ in }
            )
        }
        await AsyncCryptStoringConformance.run {
            AsyncCryptStoringConformance.Subject(
                InMemoryCrypt().reportingEvents { _ in },
                neighbour: InMemoryCrypt().reportingEvents { _ in }
            )
        }
    }

    @Test func aReportingVaultPassesBothSuites() async throws {
        let key = SymmetricKey(size: .bits256)
        try await withTemporaryFolder { folder in
            @Sendable func open(_ namespace: String) throws -> InterceptedCrypt<EncryptedFileCrypt> {
                try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: .symmetric(key))
                    .reportingEvents { _ in }
            }
            await CryptStoringConformance.run {
                let namespace = UUID().uuidString
                return CryptStoringConformance.Subject(
                    try open(namespace),
                    reopen: { try open(namespace) },
                    neighbour: try open(namespace + ".neighbour")
                )
            }
            await AsyncCryptStoringConformance.run {
                let namespace = UUID().uuidString
                return AsyncCryptStoringConformance.Subject(
                    try open(namespace),
                    reopen: { try open(namespace) },
                    neighbour: try open(namespace + ".neighbour")
                )
            }
        }
    }

    @Test func aReportingAsyncStorePassesTheAsyncSuite() async {
        await AsyncCryptStoringConformance.run {
            let table = TableCrypt.Table()
            @Sendable func open(_ namespace: String) -> some AsyncCryptStoring {
                AsyncTableCrypt(server: TableCrypt(table: table, namespace: namespace)).reportingEvents { _ in }
            }
            return AsyncCryptStoringConformance.Subject(open("store"), reopen: { open("store") }, neighbour: open("b"))
        }
    }

    // MARK: - What an event keeps

    @Test func eachCallIsReportedWithoutItsKeyItsSecretOrItsLength() throws {
        let events = RecordedEvents()
        let store = InMemoryCrypt().reportingEvents(label: "tokens", to: events.handler)

        try store.set(Self.secret, for: Self.token)
        #expect(try store.get(Self.token) == Self.secret)
        #expect(try store.contains(Self.token))
        #expect(try store.keys() == [Self.token.key])
        try store.delete(Self.token)
        try store.deleteAll()

        let calls = events.calls
        #expect(calls.map(\.event.operation) == [.write, .read, .exists, .list, .delete, .deleteAll])
        #expect(calls.allSatisfy { $0.event.store == .secrets && $0.event.label == "tokens" })
        #expect(calls.allSatisfy { $0.event.target == nil && $0.call.bytesRead == nil && $0.call.bytesWritten == nil })
        let everything = String(reflecting: events.all)
        #expect(!everything.contains("alice") && !everything.contains("horse"))
    }

    @Test func aFailureKeepsItsCodeAndReasonButNotTheErrorThatNamesTheKey() async throws {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let store = InMemoryCrypt(faults: faults).reportingEvents(to: events.handler)
        faults.failNext(.write, with: .outOfSpace)

        #expect(throws: CryptStoreError.writeFailed(key: Self.token.key, underlying: .outOfSpace)) {
            try store.set(Self.secret, for: Self.token)
        }

        let failure = try #require(events.calls.first?.call.failure)
        #expect(failure.code == "writeFailed")
        #expect(failure.reason == .outOfSpace)
        #expect(failure.error == nil)
        #expect(failure.description == "writeFailed: there is no space left on the volume")
        #expect(!String(reflecting: events.all).contains("alice"))
    }

    @Test func anErrorOfAStoreOfYourOwnIsReportedByItsTypeAlone() async throws {
        struct LeakyError: Error { let key: String }
        let events = RecordedEvents()
        let store = InMemoryCrypt(faults: StoreFaults([.always(.read, with: .error(LeakyError(key: "alice")))]))
            .reportingEvents(to: events.handler)
        try store.set(Self.secret, for: Self.token)

        #expect(throws: LeakyError.self) { try store.get(Self.token) }

        let failure = try #require(events.calls.last?.call.failure)
        #expect(failure.code == "LeakyError" && failure.error == nil && failure.description == "LeakyError")
    }

    @Test func anAsyncStoreReportsEachCallWithoutItsKey() async throws {
        let events = RecordedEvents()
        let store = AsyncTableCrypt(server: TableCrypt(table: TableCrypt.Table(), namespace: "secrets"))
            .reportingEvents(to: events.handler)

        try await store.set(Self.secret, for: Self.token)
        #expect(try await store.get(Self.token) == Self.secret)
        #expect(try await store.itemCount() == 1)

        #expect(events.calls.map(\.event.operation) == [.write, .read, .list])
        #expect(events.calls.allSatisfy { $0.event.target == nil })
    }
}
