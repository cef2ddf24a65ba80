import ForgeKVStore
import ForgeTestSupport
import Foundation

/// A class value; ``PinnedNote`` is written through a `KVKey<Note>` to check that reads give the declared class.
///
/// `@unchecked Sendable` is safe: every property is a `let` of a `Sendable` type.
class Note: Codable, Equatable, CustomStringConvertible, @unchecked Sendable {
    let title: String

    init(title: String) { self.title = title }

    static func == (lhs: Note, rhs: Note) -> Bool { lhs.title == rhs.title }

    var description: String { "\(type(of: self))(title: \(title))" }
}

/// A subclass that encodes one more field.
final class PinnedNote: Note, @unchecked Sendable {
    let pinned: Bool

    init(title: String, pinned: Bool) {
        self.pinned = pinned
        super.init(title: title)
    }

    private enum CodingKeys: String, CodingKey {
        case pinned
    }

    required init(from decoder: any Decoder) throws {
        pinned = try decoder.container(keyedBy: CodingKeys.self).decode(Bool.self, forKey: .pinned)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pinned, forKey: .pinned)
    }
}

/// An enum with a raw value.
enum Mood: String, Codable, Sendable, Equatable, CaseIterable {
    case calm
    case busy
}

/// An enum with associated values.
enum Shape: Codable, Sendable, Equatable {
    case circle(radius: Double)
    case square(side: Int)
}

/// A value of one of the types the differential test writes.
enum Sample: CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case optionalInt(Int?)
    case double(Double)
    case float(Float)
    case string(String)
    case date(Date)
    case data(Data)
    case ints([Int])
    case settings(TaskSettings)
    case note(Note)
    case mood(Mood)
    case shape(Shape)
    case url(URL)
    case optionalString(String?)
    case dictionary([String: Int])
    case unsigned(UInt64)

    var description: String {
        switch self {
        case .date(let date): "Date(\(date.timeIntervalSinceReferenceDate))"
        case .data(let data): "Data(\(Array(data)))"
        case .float(let value): "Float(\(value))"
        case .double(let value): "Double(\(value))"
        default: String(reflecting: self)
        }
    }

    /// Stores the value for `key` in `store`, with the key type of its own type.
    func write(to store: any KVStoring, key: String) throws {
        switch self {
        case .bool(let value): try store.set(KVKey<Bool>(key), value: value)
        case .int(let value): try store.set(KVKey<Int>(key), value: value)
        case .optionalInt(let value): try store.set(KVKey<Int?>(key), value: value)
        case .double(let value): try store.set(KVKey<Double>(key), value: value)
        case .float(let value): try store.set(KVKey<Float>(key), value: value)
        case .string(let value): try store.set(KVKey<String>(key), value: value)
        case .date(let value): try store.set(KVKey<Date>(key), value: value)
        case .data(let value): try store.set(KVKey<Data>(key), value: value)
        case .ints(let value): try store.set(KVKey<[Int]>(key), value: value)
        case .settings(let value): try store.set(KVKey<TaskSettings>(key), value: value)
        case .note(let value): try store.set(KVKey<Note>(key), value: value)
        case .mood(let value): try store.set(KVKey<Mood>(key), value: value)
        case .shape(let value): try store.set(KVKey<Shape>(key), value: value)
        case .url(let value): try store.set(KVKey<URL>(key), value: value)
        case .optionalString(let value): try store.set(KVKey<String?>(key), value: value)
        case .dictionary(let value): try store.set(KVKey<[String: Int]>(key), value: value)
        case .unsigned(let value): try store.set(KVKey<UInt64>(key), value: value)
        }
    }

    private static let ints = [0, 1, -1, 2, 3, 42, 255, 1 << 53 + 1, Int.max, Int.min]
    private static let doubles: [Double] = [
        0, 1, -1, 0.1, 0.5, 3, -2.5, 1e300, -1e-300, .leastNonzeroMagnitude, 786_000_123.456789, 9_007_199_254_740_992,
        1e20,
        Double(Float(0.1)), .greatestFiniteMagnitude, -0.0, .nan, .infinity,
    ]
    private static let floats: [Float] = [0, 1, 0.1, 1.5, 3, -0.0, 16_777_216, 1e30, .greatestFiniteMagnitude, .nan]
    private static let strings = [
        "", "hello", "AQID", "AQIDBA==", "true", "false", "42", "0.1", "null", "é", "e\u{301}", "🔥", "[1]",
        "{\"a\":1}", "2001-01-01T00:00:00Z", "https://example.com", "/tmp/x", "\u{FEFF}bom",
    ]
    private static let dataValues: [Data] = [
        Data(), Data([1, 2, 3]), Data("42".utf8), Data("[1,2]".utf8), Data("\"AQID\"".utf8), Data("true".utf8),
        Data("null".utf8), Data("{\"theme\":\"dark\"}".utf8), Data(" 7 ".utf8), Data([0xFF, 0xFE, 0x34, 0x00]),
    ]

    /// A random sample: often an edge value of its type, otherwise a random one.
    static func random(using generator: inout SeededGenerator) -> Sample {
        func pick<Element>(_ values: [Element], or other: () -> Element) -> Element {
            Bool.random(using: &generator) ? (values.randomElement(using: &generator) ?? other()) : other()
        }
        func randomInt() -> Int { Int.random(in: -1_000_000...1_000_000, using: &generator) }
        func randomDouble() -> Double { Double.random(in: -1e9...1e9, using: &generator) }
        func randomString() -> String { String(Int.random(in: 0...999, using: &generator), radix: 36) }
        switch Int.random(in: 0..<17, using: &generator) {
        case 0: return .bool(Bool.random(using: &generator))
        case 1: return .int(pick(ints, or: randomInt))
        case 2: return .optionalInt(Bool.random(using: &generator) ? nil : pick(ints, or: randomInt))
        case 3: return .double(pick(doubles, or: randomDouble))
        case 4: return .float(pick(floats) { Float.random(in: -1e6...1e6, using: &generator) })
        case 5: return .string(pick(strings, or: randomString))
        case 6:
            let seconds = pick([0, -1.5, 786_000_123.456789, 1e9 + 0.25]) {
                Double.random(in: -1e9...1e9, using: &generator)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 7: return .data(pick(dataValues) { Data(generator.bytes(0...12)) })
        case 8: return .ints((0..<Int.random(in: 0...3, using: &generator)).map { _ in randomInt() })
        case 9:
            let reminder = Bool.random(using: &generator) ? Date(timeIntervalSinceReferenceDate: randomDouble()) : nil
            return .settings(
                TaskSettings(theme: randomString(), fontSize: randomDouble(), tags: [], reminder: reminder)
            )
        case 10:
            let title = randomString()
            return .note(Bool.random(using: &generator) ? PinnedNote(title: title, pinned: true) : Note(title: title))
        case 11: return .mood(Mood.allCases.randomElement(using: &generator) ?? .calm)
        case 12:
            return .shape(Bool.random(using: &generator) ? .circle(radius: randomDouble()) : .square(side: randomInt()))
        case 13:
            let urls = ["https://example.com/a?b=1", "file:///tmp/x", "relative/path", "mailto:a@b.c"]
            return .url(URL(string: urls.randomElement(using: &generator) ?? "") ?? URL(fileURLWithPath: "/"))
        case 14: return .optionalString(Bool.random(using: &generator) ? nil : pick(strings, or: randomString))
        case 15: return .dictionary([randomString(): randomInt()])
        default:
            return .unsigned(
                Bool.random(using: &generator) ? UInt64.max : UInt64.random(in: 0...1_000, using: &generator)
            )
        }
    }
}

/// A type the differential test reads with.
enum ReadType: String, CaseIterable, CustomStringConvertible {
    case bool, int, optionalInt, double, float, string, date, data, ints, settings, note, mood, shape, url
    case optionalString, dictionary, unsigned, optionalDouble

    var description: String { rawValue }

    /// What `store` gives for `key` read as this type, with `get`, or with `value(for:)` when `throwing`.
    func read(_ key: String, from store: any KVStoring, throwing: Bool = false) -> Observation {
        switch self {
        case .bool: observe(Bool.self, key, store, throwing)
        case .int: observe(Int.self, key, store, throwing)
        case .optionalInt: observe(Int?.self, key, store, throwing)
        case .double: observe(Double.self, key, store, throwing)
        case .float: observe(Float.self, key, store, throwing)
        case .string: observe(String.self, key, store, throwing)
        case .date: observe(Date.self, key, store, throwing)
        case .data: observe(Data.self, key, store, throwing)
        case .ints: observe([Int].self, key, store, throwing)
        case .settings: observe(TaskSettings.self, key, store, throwing)
        case .note: observe(Note.self, key, store, throwing)
        case .mood: observe(Mood.self, key, store, throwing)
        case .shape: observe(Shape.self, key, store, throwing)
        case .url: observe(URL.self, key, store, throwing)
        case .optionalString: observe(String?.self, key, store, throwing)
        case .dictionary: observe([String: Int].self, key, store, throwing)
        case .unsigned: observe(UInt64.self, key, store, throwing)
        case .optionalDouble: observe(Double?.self, key, store, throwing)
        }
    }

    /// Whether `store` holds `key`, asked with a key of this type.
    func contains(_ key: String, in store: any KVStoring) -> Bool {
        switch self {
        case .bool: store.contains(KVKey<Bool>(key))
        case .date: store.contains(KVKey<Date>(key))
        case .note: store.contains(KVKey<Note>(key))
        case .optionalInt: store.contains(KVKey<Int?>(key))
        default: store.contains(KVKey<String>(key))
        }
    }

    private func observe<Value: Codable & Sendable & Equatable>(
        _ type: Value.Type,
        _ key: String,
        _ store: any KVStoring,
        _ throwing: Bool
    ) -> Observation {
        guard throwing else {
            let value = store.get(KVKey<Value>(key))
            return Observation(value, describedAs: value.map(Self.describe) ?? "absent")
        }
        do {
            let value = try store.value(for: KVKey<Value>(key))
            return Observation(value, describedAs: value.map(Self.describe) ?? "absent")
        } catch {
            // The case's name: the decoders' messages differ between stores, the case must not.
            let kind = Mirror(reflecting: error).children.first?.label ?? "\(error)"
            return Observation(kind, describedAs: "threw \(kind)")
        }
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case let date as Date: "Date(\(date.timeIntervalSinceReferenceDate))"
        case let data as Data: "Data(\(Array(data)))"
        default: String(reflecting: value)
        }
    }
}
