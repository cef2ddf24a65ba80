@testable import ForgeKVStore
import Foundation

/// A `UserDefaults` property list on Linux, parsed as Foundation parses it, and each value read as the store reads it.
enum DefaultsFuzzing {
    static func run(_ data: Data) {
        // swift-corelibs-foundation's parser crashes (a null pointer in the runtime's casts, bridging an `NSSet`) on
        // a binary property list that holds a set, which no property list may hold: Findings/defaults-plist/,
        // found by this target. `UserDefaults` on Linux reads its files with that parser, so it is Foundation's to
        // fix; such inputs are skipped, so that the target goes on looking past it.
        if holdsSet(binaryPropertyList: data) { return }
        // Foundation's parser: an input it refuses is a typed error of its own.
        guard let list = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
            let values = list as? [String: Any]
        else { return }
        for (key, value) in values.prefix(16) {
            read(String.self, from: value, key: key)
            read(Int.self, from: value, key: key)
            read(Bool.self, from: value, key: key)
            read([String].self, from: value, key: key)
            read(Profile.self, from: value, key: key)
        }
    }

    /// Whether `data` is a binary property list with a set among the objects its table points to; false for anything
    /// else.
    static func holdsSet(binaryPropertyList data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist".utf8)) else { return false }
        // The trailer, the last 32 bytes: the size of an offset, the number of objects, where the offsets are.
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        func integer(at start: Int, size: Int) -> Int? {
            guard size > 0, size <= 8, start >= 0, start + size <= bytes.count else { return nil }
            return bytes[start..<start + size].reduce(0) { ($0 << 8) | Int($1) }
        }
        guard let count = integer(at: trailer + 8, size: 8), let table = integer(at: trailer + 24, size: 8),
            count > 0, count < bytes.count, table < bytes.count
        else { return false }
        for index in 0..<count {
            // An offset outside the data is skipped: the parser may still reach the objects that are inside it.
            guard let offset = integer(at: table + index * offsetSize, size: offsetSize), offset >= 0,
                offset < bytes.count
            else {
                continue
            }
            if bytes[offset] & 0xF0 == 0xC0 { return true }
        }
        return false
    }

    private static func read<T: Decodable>(_ type: T.Type, from value: Any, key: String) {
        do {
            _ = try DefaultsValueCoding.decode(type, from: value, key: key)
        } catch {
            // Typed: the coding throws `KVStoreError` only.
        }
    }
}
