import ForgeCore
import Foundation
import Testing

@testable import ForgeKVStore

/// What `UserDefaultsKVStore` reads from a stored object: with any type, what the disk store reads from the JSON it
/// holds for the same written value.
struct DefaultsValueCodingTests {
    /// An object as `UserDefaults` or other code may hand it back, and the JSON of the value that was written.
    struct Stored: Sendable, CustomTestStringConvertible {
        let object: any Sendable
        let json: Data
        var testDescription: String { "\(type(of: object)) \(object)" }

        init<Value: Encodable & Sendable>(_ object: any Sendable, written value: Value) throws {
            self.object = object
            self.json = try JSONCodec.encode(value)
        }
    }

    /// Swift values, as swift-corelibs-foundation hands them back, and `NSNumber`s, as other code may pass them.
    static let objects: [Stored] = {
        do {
            return [
                try Stored(5, written: 5),
                try Stored(true, written: true),
                try Stored(0.1, written: 0.1),
                try Stored(2.0, written: 2.0),
                try Stored("x", written: "x"),
                try Stored("5", written: "5"),
                try Stored(NSNumber(value: 5), written: 5),
                try Stored(NSNumber(value: true), written: true),
                try Stored(NSNumber(value: 0.5), written: 0.5),
            ]
        } catch {
            return []
        }
    }()

    /// The value `stored` decodes to as a `T`, or nil, through the store and through the disk store's JSON.
    private func both<T: Codable & Equatable>(_ type: T.Type, _ stored: Stored) -> (store: T?, disk: T?) {
        (
            try? DefaultsValueCoding.decode(T.self, from: stored.object, key: "key"),
            try? JSONCodec.decode(T.self, from: stored.json)
        )
    }

    @Test(arguments: objects)
    func aReadWithANativeTypeGivesWhatTheDiskStoreGives(_ stored: Stored) {
        let int = both(Int.self, stored)
        #expect(int.store == int.disk)
        let bool = both(Bool.self, stored)
        #expect(bool.store == bool.disk)
        let double = both(Double.self, stored)
        #expect(double.store == double.disk)
        let string = both(String.self, stored)
        #expect(string.store == string.disk)
    }

    @Test func everyObjectIsEncodedForTheTestAbove() {
        #expect(Self.objects.count == 9)
    }
}
