public import ForgeCrypt
internal import Foundation
public import Testing

/// The behaviour every `CryptStoring` shares: the suite the package runs against each of its secret stores,
/// ready to run against yours.
///
/// Each check gets a fresh, empty ``Subject``: the store, and where the store has them, a way to open a
/// second handle on the same storage and a neighbouring store (another namespace or service) that
/// `deleteAll` must leave alone. `reopen` enables the two checks of a second handle ("another handle on the
/// same storage sees the same secrets as they change", "… lists the same keys"); `neighbour` enables "a
/// neighbouring store keeps its secrets through this store's deleteAll and delete". Without them those checks
/// are skipped, and reported as skipped, never as passed. The checks of `keys()` expect the exact keys stored,
/// sorted, each in its NFC form: a store that keeps the default `keys()` (which throws) fails them.
///
/// Two checks call the store from several threads at once; run the suite under ThreadSanitizer too
/// (`swift test --sanitize=thread`), which reports a data race even in a run that happens not to lose a write.
/// Every check takes well under a second on the package's own stores, the vault (which flushes each write) included.
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: CryptStoringConformance.checks)
/// func behavesLikeEverySecretStore(_ check: CryptStoringConformance.Check) async throws {
///     let folder = URL.temporaryDirectory.appending(path: UUID().uuidString)
///     defer { try? FileManager.default.removeItem(at: folder) }
///     func open(_ name: String) throws -> any CryptStoring { try MyVault(folder: folder, name: name) }
///     try await check.run(on: .init(try open("main"), reopen: { try open("main") }, neighbour: try open("other")))
/// }
/// ```
public enum CryptStoringConformance {
    /// One check of this suite.
    public typealias Check = ConformanceCheck<CryptStoringConformance.Subject>

    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
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
        ] + concurrencyChecks + listingChecks
    }

    /// Runs every check, each against a fresh subject from `makeSubject`, in the current test.
    ///
    /// ```swift
    /// @Test func behavesLikeEverySecretStore() async {
    ///     await CryptStoringConformance.run { CryptStoringConformance.Subject(MySecretStore()) }
    /// }
    /// ```
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes a fresh, empty store, with its second handle and neighbour when it has them.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeSubject: () async throws -> Subject,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach(makeSubject, sourceLocation: sourceLocation)
    }
}

extension CryptStoringConformance {
    /// The store a check runs against, with what some checks need beside it.
    public struct Subject: Sendable, ConformanceSubject {
        /// The store under test: fresh and empty.
        public let store: any CryptStoring
        /// Opens another handle on the same storage as ``store`` (a new instance over the same folder or
        /// keychain service), or nil when the store cannot be reopened.
        ///
        /// It enables the checks that a second handle sees every change the first makes, at once (a handle that
        /// caches what it read fails them) and lists the same keys; without it they are skipped.
        public let reopen: (@Sendable () throws -> any CryptStoring)?
        /// Another store of the same kind on the same backing as ``store`` (another namespace of the same folder,
        /// another service of the same keychain), or nil.
        ///
        /// It enables the check that ``store``'s `deleteAll`, `delete`, reads and `keys()` never reach the
        /// neighbour's secrets; without it that check is skipped. A store that has no shared backing can give
        /// another instance.
        public let neighbour: (any CryptStoring)?

        /// Creates a subject.
        ///
        /// - Parameters:
        ///   - store: The store under test: fresh and empty.
        ///   - reopen: Opens another handle on the same storage, if the store has such handles.
        ///   - neighbour: Another store beside it, which `deleteAll` must leave alone.
        public init(
            _ store: any CryptStoring,
            reopen: (@Sendable () throws -> any CryptStoring)? = nil,
            neighbour: (any CryptStoring)? = nil
        ) {
            self.store = store
            self.reopen = reopen
            self.neighbour = neighbour
        }

        var hasSecondHandle: Bool { reopen != nil }
        var hasNeighbour: Bool { neighbour != nil }
    }

    private static func getReturnsNilWhenNothingIsStored(_ subject: Subject) async throws {
        let store = subject.store
        #expect(try store.get(SuiteKeys.token) == nil)
        #expect(try !store.contains(SuiteKeys.token))
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
        try store.set("tök€n 🔑", for: SuiteKeys.token)
        try store.set("", for: SuiteKeys.refresh)
        try store.set(bytes, for: SuiteKeys.blob)
        try store.set(credentials, for: SuiteKeys.credentials)

        #expect(try store.get(SuiteKeys.token) == "tök€n 🔑")
        #expect(try store.get(SuiteKeys.refresh) == "")
        #expect(try store.get(SuiteKeys.blob) == bytes)
        #expect(try store.get(SuiteKeys.credentials) == credentials)
    }

    private static func setReplacesThePreviousSecret(_ subject: Subject) async throws {
        let store = subject.store
        try store.set("first", for: SuiteKeys.token)
        try store.set("second", for: SuiteKeys.token)
        #expect(try store.get(SuiteKeys.token) == "second")
    }

    private static func deleteRemovesOnlyThatKeyAndSucceedsWhenMissing(_ subject: Subject) async throws {
        let store = subject.store
        try store.set("access", for: SuiteKeys.token)
        try store.set("refresh", for: SuiteKeys.refresh)
        try store.delete(SuiteKeys.token)
        try store.delete(SuiteKeys.token)
        try store.delete(SuiteKeys.blob)
        #expect(try store.get(SuiteKeys.token) == nil)
        #expect(try !store.contains(SuiteKeys.token))
        #expect(try store.get(SuiteKeys.refresh) == "refresh")
    }

    private static func containsTracksExistence(_ subject: Subject) async throws {
        let store = subject.store
        #expect(try !store.contains(SuiteKeys.token))
        try store.set("token", for: SuiteKeys.token)
        #expect(try store.contains(SuiteKeys.token))
        #expect(try !store.contains(SuiteKeys.refresh))
    }

    private static func deleteAllClearsEverySecret(_ subject: Subject) async throws {
        let store = subject.store
        // Names a store built on files might take for its own, or skip as hidden.
        let names = [SuiteKeys.token.key, ".hidden", ".", "..", "", "..data", ".secret", "vault.json"]
        for name in names {
            try store.set("secret", for: CryptKey<String>(key: name))
        }
        try store.set(Data([1, 2, 3]), for: SuiteKeys.blob)

        try store.deleteAll()
        try store.deleteAll()

        for name in names {
            #expect(try store.get(CryptKey<String>(key: name)) == nil, "key \(name.debugDescription)")
            #expect(try !store.contains(CryptKey<String>(key: name)), "key \(name.debugDescription)")
        }
        #expect(try store.get(SuiteKeys.blob) == nil)
        #expect(try store.keys() == [])
        try store.set("usable again", for: SuiteKeys.token)
        #expect(try store.get(SuiteKeys.token) == "usable again")
    }

    private static func aNeighbouringStoreKeepsItsSecrets(_ subject: Subject) async throws {
        let store = subject.store
        let neighbour = try #require(subject.neighbour)
        let hidden = CryptKey<String>(key: ".hidden")
        try neighbour.set("neighbour's", for: SuiteKeys.token)
        try neighbour.set("neighbour's only", for: SuiteKeys.refresh)
        try neighbour.set("neighbour's hidden", for: hidden)
        #expect(try store.get(SuiteKeys.refresh) == nil, "a read sees only this store's secrets")
        #expect(try !store.contains(SuiteKeys.refresh), "contains sees only this store's secrets")
        #expect(try store.keys() == [], "keys lists only this store's secrets")

        try store.set("mine", for: SuiteKeys.token)
        try store.set("mine too", for: hidden)
        #expect(try store.get(SuiteKeys.token) == "mine")
        #expect(try neighbour.get(SuiteKeys.token) == "neighbour's")
        try store.delete(SuiteKeys.token)
        try store.delete(SuiteKeys.refresh)
        #expect(try neighbour.get(SuiteKeys.token) == "neighbour's", "delete leaves the neighbour's secret")
        #expect(try neighbour.get(SuiteKeys.refresh) == "neighbour's only", "delete leaves the neighbour's secret")

        try store.set("mine again", for: SuiteKeys.token)
        try store.deleteAll()
        #expect(try store.keys() == [])
        #expect(try neighbour.keys() == [hidden.key, SuiteKeys.token.key, SuiteKeys.refresh.key])
        #expect(try neighbour.get(SuiteKeys.token) == "neighbour's", "deleteAll leaves the neighbour's secrets")
        #expect(try neighbour.get(SuiteKeys.refresh) == "neighbour's only")
        #expect(try neighbour.get(hidden) == "neighbour's hidden")
    }

    private static func canonicallyEquivalentKeyNamesAreOneKey(_ subject: Subject) async throws {
        let store = subject.store
        try store.set("precomposed", for: CryptKey<String>(key: "caf\u{E9}"))
        #expect(try store.get(CryptKey<String>(key: "cafe\u{301}")) == "precomposed")
        try store.set("decomposed", for: CryptKey<String>(key: "cafe\u{301}"))
        #expect(try store.get(CryptKey<String>(key: "caf\u{E9}")) == "decomposed")
        try store.delete(CryptKey<String>(key: "cafe\u{301}"))
        #expect(try !store.contains(CryptKey<String>(key: "caf\u{E9}")))
    }

    private static func hostileKeyNamesAreOrdinaryDistinctKeys(_ subject: Subject) async throws {
        let fixed = [
            ".", "..", "../escape", "/etc/passwd", "a/b\\c", "nul\u{0}byte", "line\nbreak", "Case", "case",
            "\u{E9}", "\u{C9}", "vault.json", "%2f", String(repeating: "long-", count: 2_000),
        ]
        let names = Array(Set(fixed + collidingCryptKeyNames)).sorted()
        let store = subject.store
        for (index, name) in names.enumerated() {
            try store.set("value \(index)", for: CryptKey<String>(key: name))
        }
        for (index, name) in names.enumerated() {
            #expect(try store.get(CryptKey<String>(key: name)) == "value \(index)", "key \(name.debugDescription)")
        }
        #expect(try store.keys().count == names.count, "each name is listed as its own key")
        try store.delete(CryptKey<String>(key: "../escape"))
        #expect(try store.get(CryptKey<String>(key: "../escape")) == nil)
        let passwd = try #require(names.firstIndex(of: "/etc/passwd"))
        #expect(try store.get(CryptKey<String>(key: "/etc/passwd")) == "value \(passwd)")
    }

    private static func readingWithAnotherTypeDecodesOrThrowsAndKeepsTheSecret(_ subject: Subject) async throws {
        let store = subject.store
        // Values other than `String` and `Data` are JSON: read with another type, that JSON is decoded.
        let count = CryptKey<Int>(key: "count")
        try store.set(5, for: count)
        #expect(try store.get(CryptKey<Double>(key: count.key)) == 5.0)
        #expect(try store.get(CryptKey<Int?>(key: count.key)) == .some(5))
        // A `String` is its UTF-8, so a JSON number stored as text decodes too; prose does not.
        try store.set("7", for: SuiteKeys.token)
        #expect(try store.get(CryptKey<Int>(key: SuiteKeys.token.key)) == 7)

        try store.set("not a number", for: SuiteKeys.token)
        let asNumber = CryptKey<Double>(key: SuiteKeys.token.key)
        #expect {
            try store.get(asNumber)
        } throws: { error in
            guard case .decodingFailed(let key, _) = error as? CryptStoreError else { return false }
            return key == SuiteKeys.token.key
        }
        #expect(try store.get(SuiteKeys.token) == "not a number")
    }

    private static func bytesThatAreNotUTF8ReadAsTextThrow(_ subject: Subject) async throws {
        let store = subject.store
        let asText = CryptKey<String>(key: SuiteKeys.blob.key)
        // A stray byte, a bad continuation, a surrogate, a truncated scalar: none may come back as text.
        for bytes in [Data([0xFF]), Data([0x61, 0xC3, 0x28]), Data([0xED, 0xA0, 0x80]), Data([0xF0, 0x9F, 0x94])] {
            try store.set(bytes, for: SuiteKeys.blob)
            #expect {
                try store.get(asText)
            } throws: { error in
                guard case .decodingFailed(let key, _) = error as? CryptStoreError else { return false }
                return key == SuiteKeys.blob.key
            }
            #expect(try store.get(SuiteKeys.blob) == bytes)
        }
        // U+FFFD, what a repairing decoder puts in place of bad bytes, is itself text and reads back as it is.
        try store.set(Data("\u{FFFD}".utf8), for: SuiteKeys.blob)
        #expect(try store.get(asText) == "\u{FFFD}")
    }

    private static func aValueThatCannotBeEncodedIsRefusedAndTheOldOneKept(_ subject: Subject) async throws {
        let store = subject.store
        try store.set(1.5, for: SuiteKeys.number)
        #expect {
            try store.set(Double.nan, for: SuiteKeys.number)
        } throws: { error in
            guard case .encodingFailed(let key, _) = error as? CryptStoreError else { return false }
            return key == SuiteKeys.number.key
        }
        #expect(try store.get(SuiteKeys.number) == 1.5)
    }

    private static func anotherHandleOnTheSameStorageSeesTheSameSecrets(_ subject: Subject) async throws {
        let reopen = try #require(subject.reopen)
        let first = subject.store
        try first.set("persisted", for: SuiteKeys.token)
        let second = try reopen()
        #expect(try second.get(SuiteKeys.token) == "persisted")
        #expect(try second.contains(SuiteKeys.token))

        // What the second handle read before must not hide what the first writes after.
        try first.set("replaced", for: SuiteKeys.token)
        #expect(try second.get(SuiteKeys.token) == "replaced", "a handle reads the latest secret, not one it kept")
        try second.set("from the second", for: SuiteKeys.refresh)
        #expect(try first.get(SuiteKeys.refresh) == "from the second")

        try first.delete(SuiteKeys.token)
        #expect(try second.get(SuiteKeys.token) == nil, "a handle sees another handle's delete")
        #expect(try !second.contains(SuiteKeys.token))
        try second.deleteAll()
        #expect(try first.get(SuiteKeys.refresh) == nil, "a handle sees another handle's deleteAll")
        #expect(try !first.contains(SuiteKeys.refresh))
    }
}

extension ConformanceCheck where Subject == CryptStoringConformance.Subject {
    /// Runs the check against `store` alone: a fresh, empty store.
    ///
    /// Checks that need a second handle or a neighbour are skipped.
    ///
    /// - Throws: What the store throws where the check does not expect it, or a failed `#require`.
    public func run(on store: any CryptStoring) async throws {
        try await run(on: CryptStoringConformance.Subject(store))
    }
}
