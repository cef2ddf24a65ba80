import Configuration
import ForgeConfiguration
import ForgeKVStore
import Foundation
import Testing

/// How each JSON value a store's typed API writes reads as each `ConfigType`: every lookup, fetch and watch shares
/// the one conversion.
@Suite(.timeLimit(.minutes(1)))
struct ValueConversionTests {
    /// A value written through the typed API, the type it is read as, and what the read gives.
    struct Case: Sendable, CustomTestStringConvertible {
        let write: @Sendable (ReactiveKVStore, String) throws -> Void
        let written: String
        let type: ConfigType
        let expected: String

        init<T: Codable & Sendable>(_ value: T, as type: ConfigType, _ expected: String) {
            self.write = { store, name in try store.set(KVKey<T>(name), value: value) }
            self.written = "\(T.self) \(value)"
            self.type = type
            self.expected = expected
        }

        var testDescription: String { "\(written) as \(type)" }
    }

    static let bytes: [UInt8] = [0, 1, 254, 255]

    static let cases: [Case] = [
        Case("on", as: .string, "string(\"on\")"),
        Case(3, as: .int, "int(3)"),
        Case(3.0, as: .int, "int(3)"),
        Case(3, as: .double, "double(3.0)"),
        Case(0.25, as: .double, "double(0.25)"),
        Case(true, as: .bool, "bool(true)"),
        Case(Data(bytes), as: .bytes, "bytes([0, 1, 254, 255])"),
        Case(bytes, as: .bytes, "bytes([0, 1, 254, 255])"),
        Case([String](), as: .stringArray, "stringArray([])"),
        Case([Int](), as: .bytes, "bytes([])"),
        Case(["a", "b"], as: .stringArray, "stringArray([\"a\", \"b\"])"),
        Case([1, 2], as: .doubleArray, "doubleArray([1.0, 2.0])"),
        Case([false, true], as: .boolArray, "boolArray([false, true])"),
        Case([Data(bytes)], as: .byteChunkArray, "byteChunkArray([[0, 1, 254, 255]])"),
        Case([bytes, []], as: .byteChunkArray, "byteChunkArray([[0, 1, 254, 255], []])"),
        Case(Int?.none, as: .int, "none"),
        // Nothing is converted beyond JSON's own kinds.
        Case("3", as: .int, "The value stored under 'k' is a string, not an int."),
        Case("true", as: .bool, "The value stored under 'k' is a string, not a bool."),
        Case(1, as: .bool, "The value stored under 'k' is a whole number, not a bool."),
        Case(true, as: .int, "The value stored under 'k' is a Boolean, not an int."),
        Case(3.5, as: .int, "The value stored under 'k' is a number with a fraction, not an int."),
        Case(3, as: .string, "The value stored under 'k' is a whole number, not a string."),
        Case("not base64!", as: .bytes, "The value stored under 'k' is a string, not bytes."),
        Case([1, 256], as: .bytes, "The value stored under 'k' is an array, not bytes."),
        Case([1, 2], as: .stringArray, "The value stored under 'k' is an array, not an array of strings."),
        Case(["a"], as: .string, "The value stored under 'k' is an array, not a string."),
        Case(["a": 1], as: .string, "The value stored under 'k' is an object, not a string."),
        Case([[1]], as: .intArray, "The value stored under 'k' is an array, not an array of ints."),
    ]

    @Test(arguments: cases)
    func aStoredValueReadsAs(_ conversion: Case) async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        try conversion.write(store, "k")
        let provider = ForgeConfigProvider(store: store)
        try await provider.load()
        #expect(describe { try provider.value(forKey: ["k"], type: conversion.type) } == conversion.expected)
        #expect(describe { try provider.snapshot().value(forKey: ["k"], type: conversion.type) } == conversion.expected)
        let fetched = await Result.of { try await provider.fetchValue(forKey: ["k"], type: conversion.type) }
        #expect(describe { try fetched.get() } == conversion.expected)
    }

    @Test func bytesReadWithTheDecoderGiven() async throws {
        let store = ReactiveKVStore(InMemoryKVStore())
        try store.set(KVKey<String>("key"), value: "00ff")
        let provider = ForgeConfigProvider(store: store, bytesDecoder: .hex)
        try await provider.load()
        #expect(try provider.value(forKey: ["key"], type: .bytes).value?.content == .bytes([0, 255]))
    }
}

extension Result where Failure == any Error {
    /// The result of `body`.
    static func of(_ body: () async throws -> Success) async -> Self {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
