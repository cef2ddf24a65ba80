import Foundation

/// The JSON settings every ForgeStorage store uses, for the limits and the peers.
public enum Codec {
    /// Sorted keys, slashes unescaped: the library's encoder.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The library's decoder.
    public static let decoder = JSONDecoder()
}

/// A typical settings value: a few fields, one of them a list.
public struct Profile: Codable, Sendable, Equatable {
    /// A display name.
    public var name: String
    /// A counter.
    public var count: Int
    /// A flag.
    public var enabled: Bool
    /// A few labels.
    public var tags: [String]

    /// The value every benchmark stores.
    public static let sample = Profile(name: "Ada Lovelace", count: 42, enabled: true, tags: ["swift", "storage"])

    /// ``sample`` with another count, of the same size encoded: for a peer that skips writing an unchanged value.
    public static let otherSample = Profile(name: "Ada Lovelace", count: 43, enabled: true, tags: ["swift", "storage"])
}
