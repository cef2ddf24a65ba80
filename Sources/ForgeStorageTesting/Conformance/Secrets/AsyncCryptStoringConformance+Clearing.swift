internal import ForgeCrypt
internal import Foundation
internal import Testing

// What the checks of `deleteAll` share: every hostile key name stored, then expected gone from one store and kept
// whole by another.

extension AsyncCryptStoringConformance {
    /// Sets every name of ``cryptHostileKeyNames`` in `store` to `secret`.
    ///
    /// - Throws: What the store's `set` throws.
    static func setEveryHostileName(to secret: String, in store: any AsyncCryptStoring) async throws {
        for name in cryptHostileKeyNames {
            try await store.set(secret, for: CryptKey<String>(key: name))
        }
    }

    /// Expects `store` to hold none of `names`, in the spelling given or in NFC, and to list no key at all.
    ///
    /// - Parameters:
    ///   - names: The key names that `deleteAll` had to delete.
    ///   - store: The store whose `deleteAll` ran, or another handle on its storage.
    ///   - handle: The store as the failure names it: "the store", "the second handle".
    ///   - sourceLocation: Where to report a key left behind.
    /// - Throws: What the store throws.
    static func expectNone(
        of names: [String],
        in store: any AsyncCryptStoring,
        _ handle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for name in names {
            for spelling in Set([name, name.precomposedStringWithCanonicalMapping]) {
                let key = CryptKey<String>(key: spelling)
                let what = "\(handle) still holds key \(spelling.prefix(40).debugDescription) after deleteAll"
                #expect(try await store.get(key) == nil, "\(what)", sourceLocation: sourceLocation)
                #expect(try await !store.contains(key), "\(what)", sourceLocation: sourceLocation)
            }
        }
        #expect(try await store.keys() == [], "\(handle) lists keys after deleteAll", sourceLocation: sourceLocation)
    }

    /// Expects `store` to list exactly the hostile key names and `others`, each once, sorted and in NFC.
    ///
    /// - Throws: What the store's `keys()` throws.
    static func expectListsEveryHostileName(
        in store: any AsyncCryptStoring,
        and others: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let expected = Set((cryptHostileKeyNames + others).map(\.precomposedStringWithCanonicalMapping)).sorted()
        // Swift's `==` ignores the spelling: compare the bytes, so every key is in NFC.
        let listed = try await store.keys()
        #expect(
            listed.map { Array($0.utf8) } == expected.map { Array($0.utf8) },
            "the keys listed",
            sourceLocation: sourceLocation
        )
    }
}
