internal import ForgeCrypt
internal import Foundation
internal import Testing

/// The checks of `keys()`: a secret store lists exactly what it holds, sorted, in canonical form, and every
/// handle on its storage lists the same.
extension AsyncCryptStoringConformance {
    /// The checks of `keys()`, part of ``checks``.
    static var listingChecks: [Check] {
        [
            // Kills a keys() that is unsorted or lists deleted keys.
            Check("keys lists exactly the keys that hold a secret, sorted", keysListsExactlyWhatIsStored),
            // Kills a keys() that lists names as given (NFD), leaves out names it finds odd, or rewrites them.
            Check("keys lists hostile key names as they were given, in canonical form", keysListsHostileKeyNames),
            Check(
                "another handle on the same storage lists the same keys",
                needs: .secondHandle,
                anotherHandleListsTheSameKeys
            ),
        ]
    }

    private static func keysListsExactlyWhatIsStored(_ subject: Subject) async throws {
        let store = subject.store
        #expect(try await store.keys() == [])
        for name in ["b", "a", "c.d", "A", "auth.access"] {
            try await store.set("secret", for: CryptKey<String>(key: name))
        }
        try await store.set("replaced", for: CryptKey<String>(key: "a"))
        #expect(try await store.keys() == ["A", "a", "auth.access", "b", "c.d"])

        try await store.delete(CryptKey<String>(key: "b"))
        try await store.delete(CryptKey<String>(key: "never.stored"))
        #expect(try await store.keys() == ["A", "a", "auth.access", "c.d"])

        try await store.deleteAll()
        #expect(try await store.keys() == [])
        try await store.set(Data([1, 2, 3]), for: CryptKey<Data>(key: "usable.again"))
        #expect(try await store.keys() == ["usable.again"])
    }

    private static func keysListsHostileKeyNames(_ subject: Subject) async throws {
        let store = subject.store
        // Both spellings of "café" are one key; "clé" is given in NFD only and listed in NFC.
        let names = cryptHostileKeyNames
        for name in names {
            try await store.set("secret", for: CryptKey<String>(key: name))
        }
        let expected = Set(names.map(\.precomposedStringWithCanonicalMapping)).sorted()
        let listed = try await store.keys()
        #expect(listed == expected)
        // Swift's `==` ignores the spelling: compare the bytes, so every key is in NFC.
        #expect(listed.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "keys are listed in NFC")
        for name in listed {
            #expect(try await store.get(CryptKey<String>(key: name)) == "secret", "listed key \(name.debugDescription)")
        }
    }

    private static func anotherHandleListsTheSameKeys(_ subject: Subject) async throws {
        let reopen = try #require(subject.reopen)
        let first = subject.store
        try await first.set("access", for: SuiteKeys.token)
        try await first.set(Data([0, 1]), for: SuiteKeys.blob)
        let second = try await reopen()
        #expect(try await second.keys() == [SuiteKeys.token.key, SuiteKeys.blob.key])

        try await second.delete(SuiteKeys.token)
        try await second.set("refresh", for: SuiteKeys.refresh)
        #expect(try await first.keys() == [SuiteKeys.refresh.key, SuiteKeys.blob.key])
        #expect(try await first.keys() == second.keys())
    }
}
