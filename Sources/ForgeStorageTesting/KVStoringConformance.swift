public import ForgeKVStore
internal import Foundation
public import Testing

/// The behaviour every `KVStoring` shares: the suite the package runs against each of its key-value stores,
/// ready to run against yours.
///
/// Each check gets a fresh, empty store. Run each check as a test case of its own:
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: KVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: KVStoringConformance.Check) async throws {
///     try await check.run(on: MyKVStore())
/// }
/// ```
///
/// or all of them in one test with ``run(makeStore:sourceLocation:)``.
///
/// Two checks need more than the store, and are skipped (reported as such, never as passed) without it: give a
/// ``Subject`` with `reopen` (another handle on the same storage) to run "a second handle sees every write and
/// remove", and with `neighbour` (another store on the same backing) to run "removeAll and remove leave a
/// neighbouring store alone"; ``run(makeSubject:sourceLocation:)`` runs them all.
///
/// The concurrency checks call the store from several threads at once: run the suite under ThreadSanitizer too
/// (`swift test --sanitize=thread`), which reports a data race the checks' expectations may not see.
///
/// The package holds the suite to a reference store and its broken variants (a store without a lock, one whose
/// `removeAll` clears its neighbours, one that truncates long keys, one that caches reads, ...): each variant fails
/// at least one check.
public enum KVStoringConformance {
    /// One check of this suite.
    public typealias Check = ConformanceCheck<KVStoringConformance.Subject>

    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        [
            Check("get returns nil and contains is false when nothing is stored", getReturnsNilWhenNothingIsStored),
            Check("every supported type round-trips", everySupportedTypeRoundTrips),
            Check("a stored nil optional is contained and reads as nil", storedNilOptionalIsContainedAndReadsAsNil),
            Check("set replaces the previous value", setReplacesThePreviousValue),
            Check("remove makes the key unset and keeps the others", removeMakesTheKeyUnset),
            Check("removing an unset key succeeds", removingAnUnsetKeySucceeds),
            Check("removeAll clears every key and the store stays usable", removeAllClearsEveryKey),
            Check("removeAll on an empty store succeeds", removeAllOnAnEmptyStoreSucceeds),
            Check(
                "a value that cannot be encoded throws encodingFailed and keeps the stored value",
                unencodableValueThrowsAndKeepsTheStoredValue
            ),
            Check(
                "a value is read with another type when its JSON decodes as that type, else as nil",
                aValueIsReadWithAnotherTypeWhenItsJSONDecodesAsThatType
            ),
            Check("hostile keys are distinct and round-trip", hostileKeysAreDistinctAndRoundTrip),
            Check("canonically equivalent keys are one key", canonicallyEquivalentKeysAreOneKey),
        ] + concurrencyChecks + sharingChecks + evolutionChecks
    }

    /// Runs every check, each against a fresh store from `makeStore`, in the current test.
    ///
    /// ```swift
    /// @Test func behavesLikeEveryKVStore() async {
    ///     await KVStoringConformance.run { MyKVStore() }
    /// }
    /// ```
    ///
    /// A check that throws is recorded as an issue naming it, and the others still run.
    ///
    /// - Parameters:
    ///   - makeStore: Makes a fresh, empty store.
    ///   - sourceLocation: Where to report a check that throws; the caller's line by default.
    public static func run(
        makeStore: () async throws -> any KVStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await checks.runEach({ Subject(try await makeStore()) }, sourceLocation: sourceLocation)
    }

    /// Runs every check, each against a fresh subject from `makeSubject`, in the current test; the checks a
    /// subject cannot run (it has no second handle or neighbour) are reported together as skipped.
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

extension KVStoringConformance {
    private static func getReturnsNilWhenNothingIsStored(_ store: any KVStoring) async throws {
        #expect(store.get(KVKey<Int>("taskCount")) == nil)
        #expect(!store.contains(KVKey<Int>("taskCount")))
    }

    private static func everySupportedTypeRoundTrips(_ store: any KVStoring) async throws {
        let date = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)
        let settings = TaskSettings(theme: "dark", fontSize: 13.5, tags: ["a", "b"], reminder: date)
        try expectRoundTrip(true, in: store)
        try expectRoundTrip(-42, in: store)
        try expectRoundTrip(Int.max, in: store)
        try expectRoundTrip(3.141_592_653_589_793, in: store)
        try expectRoundTrip(Float(1.1), in: store)
        try expectRoundTrip("TaskFlow v2 – ✓", in: store)
        try expectRoundTrip(date, in: store)
        try expectRoundTrip(Data([0, 1, 2, 255]), in: store)
        try expectRoundTrip(Data(), in: store)
        try expectRoundTrip(URL(string: "https://example.com/a?b=c"), in: store)
        try expectRoundTrip([1, 2, 3], in: store)
        try expectRoundTrip(["a": 1, "b": 2], in: store)
        try expectRoundTrip(Optional("present"), in: store)
        try expectRoundTrip(settings, in: store)
        try expectRoundTrip(SortOrder.byDate(ascending: false), in: store)
        try expectRoundTrip([settings, settings], in: store)
    }

    private static func storedNilOptionalIsContainedAndReadsAsNil(_ store: any KVStoring) async throws {
        let key = KVKey<String?>("taskflow.projectName")
        try store.set(key, value: nil)
        #expect(store.contains(key))
        let read: String?? = store.get(key)
        #expect(read == .some(.none))
    }

    private static func setReplacesThePreviousValue(_ store: any KVStoring) async throws {
        let key = KVKey<String>("projectName")
        try store.set(key, value: "first")
        try store.set(key, value: "second")
        #expect(store.get(key) == "second")
    }

    private static func removeMakesTheKeyUnset(_ store: any KVStoring) async throws {
        let key = KVKey<Bool>("isActive")
        let other = KVKey<Bool>("isActiveToo")
        try store.set(key, value: true)
        try store.set(other, value: true)
        try store.remove(key)
        #expect(store.get(key) == nil)
        #expect(!store.contains(key))
        #expect(store.get(other) == true)
    }

    private static func removingAnUnsetKeySucceeds(_ store: any KVStoring) async throws {
        try store.remove(KVKey<Int>("never.set"))
    }

    /// Hidden keys (".hidden", ".", "..") and a long one are among them: kills a `removeAll` that skips names
    /// starting with "." (dot-files on disk) or that lists files it cannot map back to keys.
    private static func removeAllClearsEveryKey(_ store: any KVStoring) async throws {
        try store.set(KVKey<Int>("a"), value: 1)
        try store.set(KVKey<String>("b"), value: "hello")
        try store.set(KVKey<TaskSettings>("c"), value: TaskSettings(theme: "x", fontSize: 1, tags: []))
        let hidden = [".hidden", ".", "..", String(repeating: "k", count: 1_000)]
        for key in hidden {
            try store.set(KVKey<Int>(key), value: 3)
        }
        try store.removeAll()
        #expect(store.get(KVKey<Int>("a")) == nil)
        #expect(store.get(KVKey<String>("b")) == nil)
        #expect(!store.contains(KVKey<TaskSettings>("c")))
        for key in hidden {
            #expect(!store.contains(KVKey<Int>(key)), "key \(key.prefix(40).debugDescription)")
        }
        #expect(try store.keys() == [])
        try store.set(KVKey<Int>("a"), value: 2)
        #expect(store.get(KVKey<Int>("a")) == 2)
    }

    private static func removeAllOnAnEmptyStoreSucceeds(_ store: any KVStoring) async throws {
        try store.removeAll()
    }

    private static func unencodableValueThrowsAndKeepsTheStoredValue(_ store: any KVStoring) async throws {
        let number = KVKey<Double>("ratio")
        try store.set(number, value: 0.5)
        #expect(throws: KVStoreError.self) { try store.set(number, value: .nan) }
        #expect(throws: KVStoreError.self) { try store.set(number, value: .infinity) }
        #expect(store.get(number) == 0.5)

        let broken = KVKey<Unencodable>("broken")
        let error = #expect(throws: KVStoreError.self) { try store.set(broken, value: Unencodable()) }
        #expect(error?.key == "broken")
        if case .encodingFailed = error {
        } else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
        }
        #expect(!store.contains(broken))

        let settings = KVKey<[Double]>("ratios")
        try store.set(settings, value: [1, 2])
        #expect(throws: KVStoreError.self) { try store.set(settings, value: [1, .nan]) }
        #expect(store.get(settings) == [1, 2])
    }

    /// Every store reads a value back as another type exactly when the JSON `DiskKVStore` would hold for it
    /// decodes as that type: how an app update that changes a key's type finds the values stored before.
    private static func aValueIsReadWithAnotherTypeWhenItsJSONDecodesAsThatType(
        _ store: any KVStoring
    ) async throws {
        try store.set(KVKey<String>("text"), value: "text")
        #expect(store.get(KVKey<Int>("text")) == nil)
        #expect(store.get(KVKey<TaskSettings>("text")) == nil)
        #expect(store.get(KVKey<String?>("text")) == .some("text"))
        #expect(store.get(KVKey<String>("text")) == "text")

        try store.set(KVKey<Int>("five"), value: 5)
        #expect(store.get(KVKey<Int?>("five")) == .some(5))
        #expect(store.get(KVKey<Double>("five")) == 5.0)
        #expect(store.get(KVKey<Date>("five")) == Date(timeIntervalSinceReferenceDate: 5))
        #expect(store.get(KVKey<Bool>("five")) == nil)
        #expect(store.get(KVKey<String>("five")) == nil)

        try store.set(KVKey<Int?>("seven"), value: 7)
        #expect(store.get(KVKey<Int>("seven")) == 7)

        try store.set(KVKey<Bool>("flag"), value: true)
        #expect(store.get(KVKey<Int>("flag")) == nil)
        #expect(store.get(KVKey<Double>("flag")) == nil)

        try store.set(KVKey<Double>("tenth"), value: 0.1)
        #expect(store.get(KVKey<Float>("tenth")) == Float(0.1))
        try store.set(KVKey<Float>("tenth as float"), value: 0.1)
        #expect(store.get(KVKey<Double>("tenth as float")) == 0.1)

        // `Data` is JSON's base64 text: a base64 string reads as the bytes, a list of numbers does not.
        try store.set(KVKey<String>("base64"), value: "aGk=")
        #expect(store.get(KVKey<Data>("base64")) == Data("hi".utf8))
        try store.set(KVKey<Data>("bytes"), value: Data("hi".utf8))
        #expect(store.get(KVKey<String>("bytes")) == "aGk=")
        try store.set(KVKey<[Int]>("list"), value: [1, 2])
        #expect(store.get(KVKey<Data>("list")) == nil)
        #expect(store.get(KVKey<[Double]>("list")) == [1.0, 2.0])
    }

    /// Also kills a store that truncates long keys: the long keys come in pairs that differ only at the end.
    private static func hostileKeysAreDistinctAndRoundTrip(_ store: any KVStoring) async throws {
        for (index, key) in kvHostileKeys.enumerated() {
            try store.set(KVKey<Int>(key), value: index)
        }
        for (index, key) in kvHostileKeys.enumerated() {
            #expect(store.get(KVKey<Int>(key)) == index, "key \(key.prefix(40).debugDescription)")
        }
        for key in kvHostileKeys {
            try store.remove(KVKey<Int>(key))
            #expect(!store.contains(KVKey<Int>(key)), "key \(key.prefix(40).debugDescription)")
        }
    }

    private static func canonicallyEquivalentKeysAreOneKey(_ store: any KVStoring) async throws {
        try store.set(KVKey<String>("caf\u{E9}"), value: "precomposed")
        #expect(store.get(KVKey<String>("cafe\u{301}")) == "precomposed")
        try store.set(KVKey<String>("cafe\u{301}"), value: "decomposed")
        #expect(store.get(KVKey<String>("caf\u{E9}")) == "decomposed")
    }

    private static func expectRoundTrip<Value: Codable & Sendable & Equatable>(
        _ value: Value,
        in store: any KVStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let key = KVKey<Value>("roundTrip.\(Value.self)")
        try store.set(key, value: value)
        #expect(store.get(key) == value, sourceLocation: sourceLocation)
        #expect(store.contains(key), sourceLocation: sourceLocation)
    }
}
