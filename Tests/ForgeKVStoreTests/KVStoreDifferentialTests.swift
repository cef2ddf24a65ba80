import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// Seeded random operations run on every KV store side by side, each observation compared.
///
/// Thousands of operations run on `InMemoryKVStore`, `DiskKVStore` and `UserDefaultsKVStore`: every observation
/// (each read with one of many types, `contains`, whether a write throws) must be the same in all three. A mismatch
/// names the seed and the operation's index, so it replays exactly.
struct KVStoreDifferentialTests {
    /// The operations per seed.
    private static let operationCount = 1_500

    @Test(arguments: [UInt64(0x5EED), 0xC0FF_EE00, 0xBAD_C0DE, 42])
    func everyStoreObservesWhatTheDiskStoreObserves(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let suite = "forge.tests.differential.\(UUID().uuidString)"
            defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
            let stores: [(name: String, store: any KVStoring)] = [
                ("memory", InMemoryKVStore()),
                ("disk", DiskKVStore(directory: .custom(folder), namespace: "differential")),
                ("defaults", UserDefaultsKVStore(suiteName: suite)),
            ]
            // Thousands of synchronous disk and plist calls: on a thread of their own, so the other tests keep
            // the pool's threads meanwhile. The first ten mismatches come back to be recorded here.
            let mismatches = try await onOwnThread {
                var generator = SeededGenerator(seed: seed)
                var mismatches: [String] = []
                for index in 0..<Self.operationCount {
                    let operation = Operation.random(using: &generator)
                    let observations = stores.map { operation.observe(in: $0.store) }
                    guard observations.contains(where: { !$0.matches(observations[0]) }) else { continue }
                    let seen = zip(stores, observations).map { "\($0.name): \($1.description)" }
                    mismatches.append("seed \(seed), operation \(index): \(operation): \(seen.joined(separator: ", "))")
                    if mismatches.count == 10 { break }
                }
                return mismatches
            }
            for mismatch in mismatches {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
    }
}

/// What one store showed for one operation: a value compared with `==` (and by its dynamic type), and its description.
struct Observation: CustomStringConvertible {
    let description: String
    private let isEqual: (Observation) -> Bool
    /// The value in a ``Typed`` box, so that a nil optional keeps its type.
    private let boxed: Any

    /// A value with its static type.
    private struct Typed<Value> {
        let value: Value
    }

    init<Value: Equatable>(_ value: Value, describedAs description: String) {
        self.boxed = Typed(value: value)
        self.description = description
        self.isEqual = { other in
            guard let otherValue = (other.boxed as? Typed<Value>)?.value else { return false }
            return otherValue == value && Self.dynamicType(of: otherValue) == Self.dynamicType(of: value)
        }
    }

    func matches(_ other: Observation) -> Bool { isEqual(other) }

    /// The dynamic type of a value, or of the value an optional holds, so a subclass is told from its base class.
    private static func dynamicType(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value {
            return dynamicType(of: wrapped)
        }
        return String(describing: type(of: value))
    }
}

/// One random step: a write, a read with some type (with `get` or `value(for:)`), `contains`, `keys`, `remove` or
/// `removeAll`.
private enum Operation: CustomStringConvertible {
    case set(key: String, value: Sample)
    case get(key: String, as: ReadType)
    case value(key: String, as: ReadType)
    case listKeys
    case contains(key: String, as: ReadType)
    case remove(key: String)
    case removeAll

    private static let keyNames = ["a", "b", "c", "taskflow.setting"]

    static func random(using generator: inout SeededGenerator) -> Operation {
        let key = keyNames.randomElement(using: &generator) ?? "a"
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<40: return .set(key: key, value: Sample.random(using: &generator))
        case 40..<65: return .get(key: key, as: ReadType.allCases.randomElement(using: &generator) ?? .int)
        case 65..<85: return .value(key: key, as: ReadType.allCases.randomElement(using: &generator) ?? .int)
        case 85..<90: return .contains(key: key, as: ReadType.allCases.randomElement(using: &generator) ?? .int)
        case 90..<92: return .listKeys
        case 92..<99: return .remove(key: key)
        default: return .removeAll
        }
    }

    var description: String {
        switch self {
        case .set(let key, let value): "set \(key) = \(value)"
        case .get(let key, let type): "get \(key) as \(type)"
        case .value(let key, let type): "value(for: \(key)) as \(type)"
        case .listKeys: "keys()"
        case .contains(let key, let type): "contains \(key) as \(type)"
        case .remove(let key): "remove \(key)"
        case .removeAll: "removeAll"
        }
    }

    /// The name of `error`'s case: the messages differ between stores, the case must not.
    private static func kind(of error: KVStoreError) -> String {
        switch error {
        case .encodingFailed: "encodingFailed"
        case .decodingFailed: "decodingFailed"
        case .readFailed: "readFailed"
        case .listFailed: "listFailed"
        case .writeFailed: "writeFailed"
        case .removeFailed: "removeFailed"
        case .removeAllFailed: "removeAllFailed"
        case .flushFailed: "flushFailed"
        }
    }

    func observe(in store: any KVStoring) -> Observation {
        switch self {
        case .set(let key, let value):
            do {
                try value.write(to: store, key: key)
                return Observation("stored", describedAs: "stored")
            } catch let error as KVStoreError {
                let kind = Self.kind(of: error)
                return Observation(kind, describedAs: "threw \(kind)")
            } catch {
                return Observation("unexpected", describedAs: "threw \(error)")
            }
        case .get(let key, let type):
            return type.read(key, from: store)
        case .value(let key, let type):
            return type.read(key, from: store, throwing: true)
        case .listKeys:
            let keys = try? store.keys()
            return Observation(keys, describedAs: keys.map { "\($0)" } ?? "keys threw")
        case .contains(let key, let type):
            let found = type.contains(key, in: store)
            return Observation(found, describedAs: "\(found)")
        case .remove(let key):
            let removed = (try? store.remove(KVKey<Int>(key))) != nil
            return Observation(removed, describedAs: removed ? "removed" : "remove threw")
        case .removeAll:
            let removed = (try? store.removeAll()) != nil
            return Observation(removed, describedAs: removed ? "removed all" : "removeAll threw")
        }
    }
}
