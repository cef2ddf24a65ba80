internal import Configuration

/// How a stored JSON value reads as each `ConfigType`: the one conversion the provider's lookups, fetches and watches
/// share.
extension StoredConfigValue {
    /// The content of `type` that this value reads as, or nil when it is not a `type`.
    ///
    /// - `string`: a JSON string.
    /// - `int`: a whole number (`3`, or `3.0`); `double`: any number; `bool`: `true` or `false`. A string never reads
    ///   as a number or a Boolean, nor a number as a Boolean.
    /// - `bytes`: a string that `bytesDecoder` decodes (base64 by default, as a `KVKey<Data>` writes), or an array of
    ///   whole numbers from 0 to 255 (as a `KVKey<[UInt8]>` writes).
    /// - The arrays: a JSON array each of whose elements reads as the element type, an empty array as any of them;
    ///   `byteChunkArray` is an array of such bytes.
    func content(as type: ConfigType, bytesDecoder: any ConfigBytesFromStringDecoder) -> ConfigContent? {
        switch type {
        case .string: string.map(ConfigContent.string)
        case .int: int.map(ConfigContent.int)
        case .double: double.map(ConfigContent.double)
        case .bool: bool.map(ConfigContent.bool)
        case .bytes: bytes(bytesDecoder).map(ConfigContent.bytes)
        case .stringArray: elements(\.string).map(ConfigContent.stringArray)
        case .intArray: elements(\.int).map(ConfigContent.intArray)
        case .doubleArray: elements(\.double).map(ConfigContent.doubleArray)
        case .boolArray: elements(\.bool).map(ConfigContent.boolArray)
        case .byteChunkArray: elements { $0.bytes(bytesDecoder) }.map(ConfigContent.byteChunkArray)
        }
    }

    /// What the value is, for an error message: never the value itself, which may be a secret.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .integer: "a whole number"
        case .number: "a number with a fraction"
        case .string: "a string"
        case .array(let elements): elements.isEmpty ? "an empty array" : "an array"
        case .object: "an object"
        }
    }

    private var string: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    private var int: Int? {
        switch self {
        case .integer(let integer): integer
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }

    private var double: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let number): number
        default: nil
        }
    }

    private var bool: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    private func bytes(_ decoder: any ConfigBytesFromStringDecoder) -> [UInt8]? {
        switch self {
        case .string(let string): decoder.decode(string)
        case .array: elements { $0.int.flatMap(UInt8.init(exactly:)) }
        default: nil
        }
    }

    /// The elements of an array, each read by `read`; nil when this is not an array or an element does not read.
    private func elements<Element>(_ read: (StoredConfigValue) -> Element?) -> [Element]? {
        guard case .array(let array) = self else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(array.count)
        for element in array {
            guard let value = read(element) else { return nil }
            elements.append(value)
        }
        return elements
    }
}
