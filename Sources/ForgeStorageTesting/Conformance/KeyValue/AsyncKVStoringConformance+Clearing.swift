internal import ForgeKVStore
internal import Foundation
internal import Testing

// What the checks of `removeAll` share: every hostile key stored, then expected gone from one store and kept whole by
// another.

extension AsyncKVStoringConformance {
    /// Sets every key of ``kvHostileSpellings`` in `store`, the key at index `i` to `first + i`.
    ///
    /// The checks of `removeAll` store them all, so that a store which clears only the keys it finds tame (letters,
    /// digits, `.`, `_` and `-`) leaves some behind and fails.
    ///
    /// - Throws: What the store's `set` throws.
    static func setEveryHostileKey(in store: any AsyncKVStoring, from first: Int) async throws {
        for (index, key) in kvHostileSpellings.enumerated() {
            try await store.set(KVKey<Int>(key), value: first + index)
        }
    }

    /// Expects `store` to hold none of the hostile keys, in the spelling given or in NFC, and to list no key at all.
    ///
    /// - Parameters:
    ///   - store: The store whose `removeAll` ran, or another handle on its storage.
    ///   - handle: The store as the failure names it: "the store", "a second handle".
    ///   - sourceLocation: Where to report a key left behind.
    /// - Throws: What the store throws.
    static func expectNoHostileKey(
        in store: any AsyncKVStoring,
        _ handle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for key in kvHostileSpellings {
            for spelling in Set([key, key.precomposedStringWithCanonicalMapping]) {
                #expect(
                    try await !store.contains(KVKey<Int>(spelling)),
                    "\(handle) still holds key \(spelling.prefix(40).debugDescription) after removeAll",
                    sourceLocation: sourceLocation
                )
            }
        }
        #expect(try await store.keys() == [], "\(handle) lists keys after removeAll", sourceLocation: sourceLocation)
    }

    /// Expects `store` to hold every hostile key with the value ``setEveryHostileKey(in:from:)`` gave it from
    /// `first`, and to list exactly them and `others`.
    ///
    /// - Parameters:
    ///   - store: The neighbour, which holds its own hostile keys and `others`.
    ///   - first: The value of the first hostile key, as given to ``setEveryHostileKey(in:from:)``.
    ///   - others: The other keys `store` holds.
    ///   - sourceLocation: Where to report a key lost or listed wrong.
    /// - Throws: What the store throws.
    static func expectEveryHostileKey(
        in store: any AsyncKVStoring,
        from first: Int,
        listedWith others: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for (index, key) in kvHostileSpellings.enumerated() {
            #expect(
                try await store.get(KVKey<Int>(key)) == first + index,
                "key \(key.prefix(40).debugDescription)",
                sourceLocation: sourceLocation
            )
        }
        let expected = Set((kvHostileSpellings + others).map(\.precomposedStringWithCanonicalMapping)).sorted()
        // Compared scalar by scalar: `==` on strings would take an NFD key for its NFC spelling.
        let listed = try await store.keys()
        #expect(
            listed.map { Array($0.unicodeScalars) } == expected.map { Array($0.unicodeScalars) },
            "the keys listed",
            sourceLocation: sourceLocation
        )
    }
}
