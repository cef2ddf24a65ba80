import Configuration
@testable import ForgeConfiguration
import ForgeKVStore
import Foundation
import Testing

/// Runs `body` while `provider.run()` runs beside it, and stops the provider after.
func withRunning<Result: Sendable>(
    _ provider: ForgeConfigProvider,
    _ body: () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await provider.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}

extension ForgeConfigProvider {
    /// Waits until the provider's snapshot meets `condition`.
    ///
    /// The current snapshot is checked first, then the one after each change. It follows no key itself, so what it
    /// waits for must come from `run()`, a watch or a fetch.
    func awaitSnapshot(where condition: (any ConfigSnapshot) throws -> Bool) async throws {
        try await observeSnapshots { snapshots in
            for await snapshot in snapshots where try condition(snapshot) { return }
            Issue.record("The snapshots ended before one met the condition")
        }
    }
}

extension ConfigSnapshot {
    /// The content of `key` read as `type`; nil when there is none or it does not read as `type`.
    func content(_ key: AbsoluteConfigKey, _ type: ConfigType) -> ConfigContent? {
        try? value(forKey: key, type: type).value?.content
    }
}

/// A lookup's outcome as a line of a transcript: the content, "none", or the error's description.
func describe(_ lookup: () throws -> LookupResult) -> String {
    do {
        guard let value = try lookup().value else { return "none" }
        return "\(value.content)\(value.isSecret ? " (secret)" : "")"
    } catch let error as ForgeConfigError {
        return error.errorDescription ?? "\(error)"
    } catch {
        return "\(type(of: error)): \(error)"
    }
}

/// The values swift-configuration's `ProviderCompatTest` expects, written through the store's typed API under
/// `prefix`: bytes both as base64 strings (`Data`) and as arrays of numbers (`[UInt8]`).
enum CompatibilityValues {
    static let magic: [UInt8] = [0x6d, 0x61, 0x67, 0x69, 0x63]
    static let magic2: [UInt8] = [0x6d, 0x61, 0x67, 0x69, 0x63, 0x32]

    static func write(to store: some AsyncKVStoring, prefix: String) async throws {
        func set<T: Codable & Sendable>(_ name: String, _ value: T) async throws {
            try await store.set(KVKey<T>("\(prefix).\(name)"), value: value)
        }
        try await set("string", "Hello")
        try await set("other.string", "Other Hello")
        try await set("int", 42)
        try await set("other.int", 24)
        try await set("double", 3.14)
        try await set("other.double", 2.72)
        try await set("bool", true)
        try await set("other.bool", false)
        try await set("bytes", magic)
        try await set("other.bytes", Data(magic2))
        try await set("stringy.array", ["Hello", "World"])
        try await set("other.stringy.array", ["Hello", "Swift"])
        try await set("inty.array", [42, 24])
        try await set("other.inty.array", [16, 32])
        try await set("doubly.array", [3.14, 2.72])
        try await set("other.doubly.array", [0.9, 1.8])
        try await set("booly.array", [true, false])
        try await set("other.booly.array", [false, true, true])
        try await set("byteChunky.array", [Data(magic), Data(magic2)])
        try await set("other.byteChunky.array", [magic, magic2, magic])
    }
}
