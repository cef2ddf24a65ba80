import ForgeObservability
import ForgeStorage
import ForgeStorageTesting
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import Testing
import Tracing

/// What ``StoreObservability`` logs, counts and traces for a store whose events hide key names
/// (`reportingEvents(label:keyNames:to:)`): no record, metric or span holds a key or path in the clear; an omitted
/// name shows as `[redacted]`, a hashed one as its hash.
struct StoreObservabilityKeyNamesTests {
    /// A session keyed by its token, which no log may show.
    private static let token = "session.7f3c9e1d-token"
    private static let secretPart = "7f3c9e1d"

    /// Every kind of record through a key-value store and a file store reporting with `keyNames`: calls, a failed
    /// call, a value that did not decode and a migration.
    private static func observe(naming keyNames: StoreEvent.KeyNames) async throws -> ObservedStores {
        let faults = StoreFaults()
        let observed = ObservedStores()
        let settings = InMemoryKVStore(faults: faults)
            .reportingEvents(label: "sessions", keyNames: keyNames, to: observed.observability.record)
        let key = KVKey<Int>(token)
        try settings.set(key, value: 1)
        _ = settings.get(key)
        faults.failNext(.write, at: token, with: .outOfSpace)
        #expect(throws: KVStoreError.self) { try settings.set(key, value: 2) }
        try settings.set(KVKey<String>(token), value: "not a number")
        _ = settings.get(key)
        try settings.set(KVKey<Int>("legacy." + token), value: 3)
        _ = settings.get(KVKey<Int>("new", migrations: .renamed(from: "legacy." + token)))

        let files = InMemoryFileStore(faults: faults)
            .reportingEvents(label: "uploads", keyNames: keyNames, to: observed.observability.record)
        try await files.save(Data("hello".utf8), to: "\(secretPart)/avatar.png")
        faults.failNext(.read, at: "\(secretPart)/avatar.png", with: .permissionDenied)
        await #expect(throws: FileStoreError.self) { try await files.load("\(secretPart)/avatar.png") }
        return observed
    }

    @Test func clearNamesAreLoggedAsBefore() async throws {
        let observed = try await Self.observe(naming: .clear)
        #expect(observed.everything.contains(Self.secretPart))
    }

    @Test func omittedNamesAreLoggedAsRedacted() async throws {
        let observed = try await Self.observe(naming: .omitted)
        #expect(!observed.everything.contains(Self.secretPart))
        let entries = observed.logs.entries
        #expect(entries.first?.metadata["forge.key"] == "[redacted]")
        let failed = try #require(entries.first { $0.level == .error })
        #expect(failed.error == nil)
        #expect(failed.metadata["forge.error"] == .string("writeFailed: \(FailureReason.outOfSpace)"))
        let notDecoded = try #require(entries.first { $0.level == .warning })
        #expect(notDecoded.metadata["forge.stored_name"] == "[redacted]")
        #expect(entries.contains { $0.metadata["forge.path"] == "[redacted]" })
    }

    @Test func hashedNamesAreLoggedAsTheirHash() async throws {
        let key = SymmetricKey(data: Data(repeating: 1, count: 32))
        let observed = try await Self.observe(naming: .hashed(key: key))
        #expect(!observed.everything.contains(Self.secretPart))
        // The token's HMAC-SHA256 under 32 bytes of 0x01, from Python's hmac module.
        let hash = "hmac:4c18a61fcdb0a45df985d9b4"
        #expect(observed.logs.entries.first?.metadata["forge.key"] == .string(hash))
        let spans = observed.tracer.finishedSpans
        #expect(spans.first?.attributes["forge.key"]?.toSpanAttribute() == .string(hash))
    }
}
