/// A JSON value as a key-value store holds it, read without knowing what type wrote it: what the provider keeps in
/// its snapshot, and the type of the `KVKey` it reads and streams every name with.
///
/// Whatever a store's typed API wrote (`KVKey<Bool>`, `KVKey<[String]>`, `KVKey<Data>`, a `Codable` struct) decodes
/// as one of these, so the provider reads any key of any store. Numbers keep the distinction JSON keeps: a number
/// written without a fraction or exponent that fits an `Int` is an ``integer(_:)``, any other a ``number(_:)``.
enum StoredConfigValue: Sendable, Hashable {
    /// JSON `null`, which a `KVKey` of an optional type writes for nil: read as no value.
    case null
    /// JSON `true` or `false`.
    case bool(Bool)
    /// A whole number that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([StoredConfigValue])
    /// An object.
    case object([String: StoredConfigValue])
}

extension StoredConfigValue: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([StoredConfigValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: StoredConfigValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}
