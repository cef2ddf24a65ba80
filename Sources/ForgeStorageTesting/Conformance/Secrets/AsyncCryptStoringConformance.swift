public import ForgeCrypt
internal import Foundation
import Testing

/// The behaviour every `AsyncCryptStoring` shares: the suite ``CryptStoringConformance`` holds a synchronous store
/// to, ready to run against a store that conforms only to the asynchronous protocol, such as one behind a network.
///
/// Each check gets a fresh, empty ``Subject``: the store, and where the store has them, a way to open a second
/// handle on the same storage (`reopen`) and a neighbouring store on the same backing (`neighbour`) that
/// `deleteAll` must leave alone. Without them the checks that need them are reported as skipped, never as passed.
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: AsyncCryptStoringConformance.checks)
/// func behavesLikeEverySecretStore(_ check: AsyncCryptStoringConformance.Check) async throws {
///     let subject = AsyncCryptStoringConformance.Subject(
///         MyNetworkSecrets(namespace: "main"),
///         reopen: { MyNetworkSecrets(namespace: "main") },
///         neighbour: MyNetworkSecrets(namespace: "other")
///     )
///     try await check.run(on: subject)
/// }
/// ```
///
/// These checks are the definitions: ``CryptStoringConformance`` runs each of them against a synchronous store
/// through its synchronous methods, and adds the checks that call a store from several threads at once.
public enum AsyncCryptStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        coreChecks + listingChecks
    }

    /// The checks of values, deletion, key names, second handles and neighbours, part of ``checks``.
    static var coreChecks: [Check] {
        [
            Check("get returns nil and contains is false when nothing is stored", getReturnsNilWhenNothingIsStored),
            Check("strings, data and Codable values round-trip", roundTripsStringsDataAndCodableValues),
            Check("set replaces the previous secret", setReplacesThePreviousSecret),
            Check(
                "delete removes only that key and succeeds when it is missing",
                deleteRemovesOnlyThatKeyAndSucceedsWhenMissing
            ),
            Check("contains tracks existence", containsTracksExistence),
            // Kills a deleteAll that leaves names starting with ".".
            Check(
                "deleteAll clears every secret, hidden names too, and the store stays usable",
                deleteAllClearsEverySecret
            ),
            Check("canonically equivalent key names are one key", canonicallyEquivalentKeyNamesAreOneKey),
            // Kills stores that replace, drop or fold characters of key names, or truncate them.
            Check("hostile key names are ordinary distinct keys", hostileKeyNamesAreOrdinaryDistinctKeys),
            Check(
                "a secret reads with another type when its bytes decode as it, else throws decodingFailed and stays",
                readingWithAnotherTypeDecodesOrThrowsAndKeepsTheSecret
            ),
            Check("bytes that are not UTF-8 read as a String throw decodingFailed", bytesThatAreNotUTF8ReadAsTextThrow),
            Check(
                "a value that cannot be encoded is refused and the old one kept",
                aValueThatCannotBeEncodedIsRefusedAndTheOldOneKept
            ),
            // Kills a second handle that caches what it read.
            Check(
                "another handle on the same storage sees the same secrets as they change",
                needs: .secondHandle,
                anotherHandleOnTheSameStorageSeesTheSameSecrets
            ),
            // Kills a deleteAll, delete or read that reaches past its namespace or service.
            Check(
                "a neighbouring store keeps its secrets through this store's deleteAll and delete",
                needs: .neighbour,
                aNeighbouringStoreKeepsItsSecrets
            ),
        ]
    }
}

extension AsyncCryptStoringConformance {
    private static func getReturnsNilWhenNothingIsStored(_ subject: Subject) async throws {
        let store = subject.store
        #expect(try await store.get(SuiteKeys.token) == nil)
        #expect(try await !store.contains(SuiteKeys.token))
    }

    private static func roundTripsStringsDataAndCodableValues(_ subject: Subject) async throws {
        let store = subject.store
        let bytes = Data([0x00, 0xFF, 0xC3, 0x28, 0x0A])  // not UTF-8
        let credentials = Credentials(
            user: "ada",
            scopes: ["read", "write"],
            expiry: Date(timeIntervalSinceReferenceDate: 123_456.789),
            refresh: nil
        )
        try await store.set("tök€n 🔑", for: SuiteKeys.token)
        try await store.set("", for: SuiteKeys.refresh)
        try await store.set(bytes, for: SuiteKeys.blob)
        try await store.set(credentials, for: SuiteKeys.credentials)

        #expect(try await store.get(SuiteKeys.token) == "tök€n 🔑")
        #expect(try await store.get(SuiteKeys.refresh) == "")
        #expect(try await store.get(SuiteKeys.blob) == bytes)
        #expect(try await store.get(SuiteKeys.credentials) == credentials)
    }

    private static func setReplacesThePreviousSecret(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set("first", for: SuiteKeys.token)
        try await store.set("second", for: SuiteKeys.token)
        #expect(try await store.get(SuiteKeys.token) == "second")
    }

    private static func deleteRemovesOnlyThatKeyAndSucceedsWhenMissing(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set("access", for: SuiteKeys.token)
        try await store.set("refresh", for: SuiteKeys.refresh)
        try await store.delete(SuiteKeys.token)
        try await store.delete(SuiteKeys.token)
        try await store.delete(SuiteKeys.blob)
        #expect(try await store.get(SuiteKeys.token) == nil)
        #expect(try await !store.contains(SuiteKeys.token))
        #expect(try await store.get(SuiteKeys.refresh) == "refresh")
    }

    private static func containsTracksExistence(_ subject: Subject) async throws {
        let store = subject.store
        #expect(try await !store.contains(SuiteKeys.token))
        try await store.set("token", for: SuiteKeys.token)
        #expect(try await store.contains(SuiteKeys.token))
        #expect(try await !store.contains(SuiteKeys.refresh))
    }

    /// Every hostile key name is among the secrets (spaces, "/", ":", NUL, NFC and NFD spellings, emoji, very long
    /// names, dot-names): kills a `deleteAll` that leaves names a store built on files skips as hidden or takes for its
    /// own, or that deletes only names made of letters, digits, ".", "_" and "-".
    private static func deleteAllClearsEverySecret(_ subject: Subject) async throws {
        let store = subject.store
        // Names a store built on files might take for its own, or skip as hidden, and every hostile name.
        let names =
            [SuiteKeys.token.key, ".hidden", ".", "..", "", "..data", ".secret", "vault.json"] + cryptHostileKeyNames
        for name in names {
            try await store.set("secret", for: CryptKey<String>(key: name))
        }
        try await store.set(Data([1, 2, 3]), for: SuiteKeys.blob)

        try await store.deleteAll()
        try await store.deleteAll()

        try await expectNone(of: names, in: store, "the store")
        #expect(try await store.get(SuiteKeys.blob) == nil)
        try await store.set("usable again", for: SuiteKeys.token)
        #expect(try await store.get(SuiteKeys.token) == "usable again")
    }

    /// Both stores hold every hostile key name: the store's `deleteAll` deletes all of its own, and the neighbour
    /// keeps all of its.
    private static func aNeighbouringStoreKeepsItsSecrets(_ subject: Subject) async throws {
        let store = subject.store
        let neighbour = try #require(subject.neighbour)
        let hidden = CryptKey<String>(key: ".hidden")
        try await setEveryHostileName(to: "neighbour's hostile", in: neighbour)
        try await neighbour.set("neighbour's", for: SuiteKeys.token)
        try await neighbour.set("neighbour's only", for: SuiteKeys.refresh)
        try await neighbour.set("neighbour's hidden", for: hidden)
        #expect(try await store.get(SuiteKeys.refresh) == nil, "a read sees only this store's secrets")
        #expect(try await !store.contains(SuiteKeys.refresh), "contains sees only this store's secrets")
        #expect(try await store.keys() == [], "keys lists only this store's secrets")

        try await store.set("mine", for: SuiteKeys.token)
        try await store.set("mine too", for: hidden)
        if let count = try await itemCount(of: store) {
            #expect(try await count == store.keys().count, "itemCount counts only this store's secrets")
        }
        #expect(try await store.get(SuiteKeys.token) == "mine")
        #expect(try await neighbour.get(SuiteKeys.token) == "neighbour's")
        try await store.delete(SuiteKeys.token)
        try await store.delete(SuiteKeys.refresh)
        #expect(try await neighbour.get(SuiteKeys.token) == "neighbour's", "delete leaves the neighbour's secret")
        #expect(
            try await neighbour.get(SuiteKeys.refresh) == "neighbour's only",
            "delete leaves the neighbour's secret"
        )

        try await store.set("mine again", for: SuiteKeys.token)
        try await setEveryHostileName(to: "mine", in: store)
        try await store.deleteAll()
        try await expectNone(of: cryptHostileKeyNames + [SuiteKeys.token.key], in: store, "the store")
        try await expectListsEveryHostileName(
            in: neighbour,
            and: [hidden.key, SuiteKeys.token.key, SuiteKeys.refresh.key]
        )
        #expect(try await neighbour.get(SuiteKeys.token) == "neighbour's", "deleteAll leaves the neighbour's secrets")
        #expect(try await neighbour.get(SuiteKeys.refresh) == "neighbour's only")
        #expect(try await neighbour.get(hidden) == "neighbour's hidden")
        for name in cryptHostileKeyNames where name != hidden.key {
            #expect(
                try await neighbour.get(CryptKey<String>(key: name)) == "neighbour's hostile",
                "deleteAll leaves the neighbour's key \(name.prefix(40).debugDescription)"
            )
        }
    }

    private static func canonicallyEquivalentKeyNamesAreOneKey(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set("precomposed", for: CryptKey<String>(key: "caf\u{E9}"))
        #expect(try await store.get(CryptKey<String>(key: "cafe\u{301}")) == "precomposed")
        try await store.set("decomposed", for: CryptKey<String>(key: "cafe\u{301}"))
        #expect(try await store.get(CryptKey<String>(key: "caf\u{E9}")) == "decomposed")
        try await store.delete(CryptKey<String>(key: "cafe\u{301}"))
        #expect(try await !store.contains(CryptKey<String>(key: "caf\u{E9}")))
    }

    private static func hostileKeyNamesAreOrdinaryDistinctKeys(_ subject: Subject) async throws {
        let fixed = [
            ".", "..", "../escape", "/etc/passwd", "a/b\\c", "nul\u{0}byte", "line\nbreak", "Case", "case",
            "\u{E9}", "\u{C9}", "vault.json", "%2f", String(repeating: "long-", count: 2_000),
        ]
        let names = Array(Set(fixed + collidingCryptKeyNames)).sorted()
        let store = subject.store
        for (index, name) in names.enumerated() {
            try await store.set("value \(index)", for: CryptKey<String>(key: name))
        }
        for (index, name) in names.enumerated() {
            #expect(
                try await store.get(CryptKey<String>(key: name)) == "value \(index)",
                "key \(name.debugDescription)"
            )
        }
        #expect(try await store.keys().count == names.count, "each name is listed as its own key")
        try await store.delete(CryptKey<String>(key: "../escape"))
        #expect(try await store.get(CryptKey<String>(key: "../escape")) == nil)
        let passwd = try #require(names.firstIndex(of: "/etc/passwd"))
        #expect(try await store.get(CryptKey<String>(key: "/etc/passwd")) == "value \(passwd)")
    }

    private static func readingWithAnotherTypeDecodesOrThrowsAndKeepsTheSecret(_ subject: Subject) async throws {
        let store = subject.store
        // Values other than `String` and `Data` are JSON: read with another type, that JSON is decoded.
        let count = CryptKey<Int>(key: "count")
        try await store.set(5, for: count)
        #expect(try await store.get(CryptKey<Double>(key: count.key)) == 5.0)
        #expect(try await store.get(CryptKey<Int?>(key: count.key)) == .some(5))
        // A `String` is its UTF-8, so a JSON number stored as text decodes too; prose does not.
        try await store.set("7", for: SuiteKeys.token)
        #expect(try await store.get(CryptKey<Int>(key: SuiteKeys.token.key)) == 7)

        try await store.set("not a number", for: SuiteKeys.token)
        let asNumber = CryptKey<Double>(key: SuiteKeys.token.key)
        await #expect {
            try await store.get(asNumber)
        } throws: { error in
            guard case .decodingFailed(let key, _) = error as? CryptStoreError else { return false }
            return key == SuiteKeys.token.key
        }
        #expect(try await store.get(SuiteKeys.token) == "not a number")
    }

    private static func bytesThatAreNotUTF8ReadAsTextThrow(_ subject: Subject) async throws {
        let store = subject.store
        let asText = CryptKey<String>(key: SuiteKeys.blob.key)
        // A stray byte, a bad continuation, a surrogate, a truncated scalar: none may come back as text.
        for bytes in [Data([0xFF]), Data([0x61, 0xC3, 0x28]), Data([0xED, 0xA0, 0x80]), Data([0xF0, 0x9F, 0x94])] {
            try await store.set(bytes, for: SuiteKeys.blob)
            await #expect {
                try await store.get(asText)
            } throws: { error in
                guard case .decodingFailed(let key, _) = error as? CryptStoreError else { return false }
                return key == SuiteKeys.blob.key
            }
            #expect(try await store.get(SuiteKeys.blob) == bytes)
        }
        // U+FFFD, what a repairing decoder puts in place of bad bytes, is itself text and reads back as it is.
        try await store.set(Data("\u{FFFD}".utf8), for: SuiteKeys.blob)
        #expect(try await store.get(asText) == "\u{FFFD}")
    }

    private static func aValueThatCannotBeEncodedIsRefusedAndTheOldOneKept(_ subject: Subject) async throws {
        let store = subject.store
        try await store.set(1.5, for: SuiteKeys.number)
        await #expect {
            try await store.set(Double.nan, for: SuiteKeys.number)
        } throws: { error in
            guard case .encodingFailed(let key, _) = error as? CryptStoreError else { return false }
            return key == SuiteKeys.number.key
        }
        #expect(try await store.get(SuiteKeys.number) == 1.5)
    }

    private static func anotherHandleOnTheSameStorageSeesTheSameSecrets(_ subject: Subject) async throws {
        let reopen = try #require(subject.reopen)
        let first = subject.store
        try await first.set("persisted", for: SuiteKeys.token)
        let second = try await reopen()
        #expect(try await second.get(SuiteKeys.token) == "persisted")
        #expect(try await second.contains(SuiteKeys.token))

        // What the second handle read before must not hide what the first writes after.
        try await first.set("replaced", for: SuiteKeys.token)
        #expect(
            try await second.get(SuiteKeys.token) == "replaced",
            "a handle reads the latest secret, not one it kept"
        )
        try await second.set("from the second", for: SuiteKeys.refresh)
        #expect(try await first.get(SuiteKeys.refresh) == "from the second")

        try await first.delete(SuiteKeys.token)
        #expect(try await second.get(SuiteKeys.token) == nil, "a handle sees another handle's delete")
        #expect(try await !second.contains(SuiteKeys.token))
        try await setEveryHostileName(to: "secret", in: first)
        try await second.deleteAll()
        #expect(try await first.get(SuiteKeys.refresh) == nil, "a handle sees another handle's deleteAll")
        #expect(try await !first.contains(SuiteKeys.refresh))
        try await expectNone(of: cryptHostileKeyNames, in: first, "the first handle")
        try await expectNone(of: cryptHostileKeyNames, in: second, "the second handle")
    }
}

extension CryptStoringConformance.Subject {
    /// The same subject seen through `AsyncCryptStoring`, every call made through the synchronous methods, for
    /// the checks ``AsyncCryptStoringConformance`` defines.
    var asynchronous: AsyncCryptStoringConformance.Subject {
        let reopen = self.reopen
        return AsyncCryptStoringConformance.Subject(
            SynchronousCryptStore(store),
            reopen: reopen.map { open in { @Sendable in SynchronousCryptStore(try await open()) } },
            neighbour: neighbour.map { SynchronousCryptStore($0) }
        )
    }
}

extension AsyncCryptStoringConformance {
    /// The store a check runs against, with a second handle and a neighbour where it has them (see ``StoreSubject``).
    public typealias Subject = StoreSubject<any AsyncCryptStoring>
}

extension AsyncCryptStoringConformance {
    /// The number of secrets `store` counts (`itemCount()`), when it is built on the backend contract and so has one;
    /// nil otherwise.
    static func itemCount(of store: any AsyncCryptStoring) async throws -> Int? {
        if let synchronous = store as? SynchronousCryptStore, let backend = synchronous.base as? any CryptBackend {
            return try backend.itemCount()
        }
        if let backend = store as? any CryptBackend { return try backend.itemCount() }
        if let backend = store as? any AsyncCryptBackend { return try await backend.itemCount() }
        return nil
    }
}
