import Configuration
@testable import ForgeConfiguration
import ForgeKVStore
import ForgePostgres
import Foundation
import Testing

/// One sequence of writes, made to the store under a running provider, with what the provider's snapshot answers
/// after each: the same over the in-memory twin as over PostgreSQL.
@Suite(.timeLimit(.minutes(1)))
struct TwinEquivalenceTests {
    /// A write, and the lookup that shows the provider has seen it: the key, the type and what it must read (for a
    /// removal of every value, no key has one).
    struct Step: Sendable {
        let write: @Sendable (any AsyncKVStoring) async throws -> Void
        let key: AbsoluteConfigKey
        let type: ConfigType
        let expected: ConfigContent?
    }

    static let keys: [(AbsoluteConfigKey, ConfigType)] = [
        (["features", "newCheckout"], .bool), (["features", "newCheckout"], .string), (["limits", "maxItems"], .int),
        (["limits", "maxItems"], .double), (["ratio"], .double), (["regions"], .stringArray), (["token"], .bytes),
    ]

    static let token = Data([1, 2, 3])

    static let steps: [Step] = [
        Step(
            write: { try await $0.set(KVKey<Bool>("app.features.newCheckout"), value: true) },
            key: ["features", "newCheckout"],
            type: .bool,
            expected: .bool(true)
        ),
        Step(
            write: { try await $0.set(KVKey<Int>("app.limits.maxItems"), value: 5) },
            key: ["limits", "maxItems"],
            type: .int,
            expected: .int(5)
        ),
        Step(
            write: { try await $0.set(KVKey<String>("app.features.newCheckout"), value: "on") },
            key: ["features", "newCheckout"],
            type: .string,
            expected: .string("on")
        ),
        Step(
            write: { try await $0.set(KVKey<Double>("app.ratio"), value: 0.25) },
            key: ["ratio"],
            type: .double,
            expected: .double(0.25)
        ),
        Step(
            write: { try await $0.set(KVKey<[String]>("app.regions"), value: ["eu", "us"]) },
            key: ["regions"],
            type: .stringArray,
            expected: .stringArray(["eu", "us"])
        ),
        Step(
            write: { try await $0.remove(KVKey<Int>("app.limits.maxItems")) },
            key: ["limits", "maxItems"],
            type: .int,
            expected: nil
        ),
        Step(
            write: { try await $0.set(KVKey<Data>("app.token"), value: token) },
            key: ["token"],
            type: .bytes,
            expected: .bytes([1, 2, 3])
        ),
        Step(
            write: { try await $0.set(KVKey<Double>("app.limits.maxItems"), value: 7.5) },
            key: ["limits", "maxItems"],
            type: .double,
            expected: .double(7.5)
        ),
        Step(
            write: { try await $0.removeAll() },
            key: [],
            type: .string,
            expected: nil
        ),
    ]

    /// What the provider's snapshot answers for every key after each step, as lines.
    static func transcript(of store: some AsyncKVStreaming) async throws -> [String] {
        try await store.set(KVKey<Bool>("app.features.newCheckout"), value: false)
        let provider = ForgeConfigProvider(store: store, keyPrefix: "app", secretsSpecifier: .specific(["token"]))
        try await provider.load()
        var lines: [String] = []
        func record(_ title: String) {
            lines.append("== \(title)")
            for (key, type) in keys {
                lines.append("\(key) as \(type): \(describe { try provider.value(forKey: key, type: type) })")
            }
        }
        record("loaded")  // the reader asks for every key, so run() follows them all
        try await withRunning(provider) {
            for (number, step) in steps.enumerated() {
                try await step.write(store)
                try await provider.awaitSnapshot { snapshot in
                    guard step.key.components.isEmpty else {
                        return snapshot.content(step.key, step.type) == step.expected
                    }
                    return keys.allSatisfy { (try? snapshot.value(forKey: $0.0, type: $0.1).value) == nil }
                }
                record("step \(number + 1)")
            }
        }
        return lines
    }

    @Test func theTwinsTranscriptIsTheExpectedOne() async throws {
        let lines = try await Self.transcript(of: ReactiveKVStore(InMemoryKVStore()))
        #expect(lines.count == (Self.steps.count + 1) * (Self.keys.count + 1))
        #expect(lines.suffix(8) == ["== step 9"] + Self.keys.map { "\($0.0) as \($0.1): none" })
        let afterStep3 = lines.drop { $0 != "== step 3" }.prefix(8)
        #expect(
            Array(afterStep3) == [
                "== step 3",
                "features.newCheckout as bool: The value stored under 'app.features.newCheckout' is a string, not a bool.",
                "features.newCheckout as string: string(\"on\")",
                "limits.maxItems as int: int(5)",
                "limits.maxItems as double: double(5.0)",
                "ratio as double: none",
                "regions as stringArray: none",
                "token as bytes: none",
            ]
        )
        #expect(lines.contains("token as bytes: bytes([1, 2, 3]) (secret)"))
    }

    @Test(.enabled(if: TestServer.url != nil, TestServer.skipReason))
    func theProviderOverPostgreSQLGivesTheTwinsTranscript() async throws {
        let twin = try await Self.transcript(of: ReactiveKVStore(InMemoryKVStore()))
        let postgres = try await TestServer.withStores { stores in try await Self.transcript(of: stores[0]) }
        #expect(postgres == twin)
    }
}
