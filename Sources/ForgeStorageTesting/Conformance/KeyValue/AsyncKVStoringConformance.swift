import ForgeKVStore
internal import Foundation
import Testing

/// The behaviour every `AsyncKVStoring` shares: the suite ``KVStoringConformance`` holds a synchronous store to,
/// ready to run against a store that conforms only to the asynchronous protocol, such as one behind a network.
///
/// Each check gets a fresh, empty store. Run each check as a test case of its own:
///
/// ```swift
/// import ForgeStorageTesting
/// import Testing
///
/// @Test(arguments: AsyncKVStoringConformance.checks)
/// func behavesLikeEveryKVStore(_ check: AsyncKVStoringConformance.Check) async throws {
///     try await check.run(on: MyNetworkKVStore())
/// }
/// ```
///
/// or all of them in one test with ``ConformanceSuite/run(makeStore:sourceLocation:)``. Give a ``Subject`` with `reopen` (another
/// handle on the same storage) and `neighbour` (another store on the same backing) to run the two checks that need
/// them; without them those checks are reported as skipped, never as passed.
///
/// These checks are the definitions: ``KVStoringConformance`` runs each of them against a synchronous store through
/// its synchronous methods, and adds the checks that call a store from several threads at once.
public enum AsyncKVStoringConformance: ConformanceSuite {
    /// Every check of the suite, in a stable order; each names the behaviour it pins down.
    public static var checks: [Check] {
        coreChecks + sharingChecks + evolutionChecks + keyDefaultChecks
    }

    /// The checks of values, removal and key names, part of ``checks``.
    static var coreChecks: [Check] {
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
            Check(
                "a read returns the value as stored, never an instance set was given or a read returned",
                aReadReturnsTheValueAsStoredNeverAnInstanceGiven
            ),
        ]
    }
}

extension AsyncKVStoringConformance {
    private static func getReturnsNilWhenNothingIsStored(_ store: any AsyncKVStoring) async throws {
        #expect(try await store.get(KVKey<Int>("taskCount")) == nil)
        #expect(try await !store.contains(KVKey<Int>("taskCount")))
    }

    private static func everySupportedTypeRoundTrips(_ store: any AsyncKVStoring) async throws {
        let date = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456)
        let settings = TaskSettings(theme: "dark", fontSize: 13.5, tags: ["a", "b"], reminder: date)
        try await expectRoundTrip(true, in: store)
        try await expectRoundTrip(-42, in: store)
        try await expectRoundTrip(Int.max, in: store)
        try await expectRoundTrip(3.141_592_653_589_793, in: store)
        try await expectRoundTrip(Float(1.1), in: store)
        try await expectRoundTrip("TaskFlow v2 – ✓", in: store)
        try await expectRoundTrip(date, in: store)
        try await expectRoundTrip(Data([0, 1, 2, 255]), in: store)
        try await expectRoundTrip(Data(), in: store)
        try await expectRoundTrip(URL(string: "https://example.com/a?b=c"), in: store)
        try await expectRoundTrip([1, 2, 3], in: store)
        try await expectRoundTrip(["a": 1, "b": 2], in: store)
        try await expectRoundTrip(Optional("present"), in: store)
        try await expectRoundTrip(settings, in: store)
        try await expectRoundTrip(SortOrder.byDate(ascending: false), in: store)
        try await expectRoundTrip([settings, settings], in: store)
    }

    private static func storedNilOptionalIsContainedAndReadsAsNil(_ store: any AsyncKVStoring) async throws {
        let key = KVKey<String?>("taskflow.projectName")
        try await store.set(key, value: nil)
        #expect(try await store.contains(key))
        let read: String?? = try await store.get(key)
        #expect(read == .some(.none))
    }

    private static func setReplacesThePreviousValue(_ store: any AsyncKVStoring) async throws {
        let key = KVKey<String>("projectName")
        try await store.set(key, value: "first")
        try await store.set(key, value: "second")
        #expect(try await store.get(key) == "second")
    }

    private static func removeMakesTheKeyUnset(_ store: any AsyncKVStoring) async throws {
        let key = KVKey<Bool>("isActive")
        let other = KVKey<Bool>("isActiveToo")
        try await store.set(key, value: true)
        try await store.set(other, value: true)
        try await store.remove(key)
        #expect(try await store.get(key) == nil)
        #expect(try await !store.contains(key))
        #expect(try await store.get(other) == true)
    }

    private static func removingAnUnsetKeySucceeds(_ store: any AsyncKVStoring) async throws {
        try await store.remove(KVKey<Int>("never.set"))
    }

    /// Every hostile key is among them (spaces, "/", ":", NUL, NFD, emoji, very long keys, ".hidden", "." and
    /// ".."): kills a `removeAll` that skips names starting with "." (dot-files on disk), that lists files it cannot
    /// map back to keys, or that clears only keys made of letters, digits, ".", "_" and "-".
    private static func removeAllClearsEveryKey(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<Int>("a"), value: 1)
        try await store.set(KVKey<String>("b"), value: "hello")
        try await store.set(KVKey<TaskSettings>("c"), value: TaskSettings(theme: "x", fontSize: 1, tags: []))
        try await setEveryHostileKey(in: store, from: 0)
        try await store.removeAll()
        #expect(try await store.get(KVKey<Int>("a")) == nil)
        #expect(try await store.get(KVKey<String>("b")) == nil)
        #expect(try await !store.contains(KVKey<TaskSettings>("c")))
        try await expectNoHostileKey(in: store, "the store")
        try await store.set(KVKey<Int>("a"), value: 2)
        #expect(try await store.get(KVKey<Int>("a")) == 2)
    }

    private static func removeAllOnAnEmptyStoreSucceeds(_ store: any AsyncKVStoring) async throws {
        try await store.removeAll()
    }

    private static func unencodableValueThrowsAndKeepsTheStoredValue(_ store: any AsyncKVStoring) async throws {
        let number = KVKey<Double>("ratio")
        try await store.set(number, value: 0.5)
        await #expect(throws: KVStoreError.self) { try await store.set(number, value: .nan) }
        await #expect(throws: KVStoreError.self) { try await store.set(number, value: .infinity) }
        #expect(try await store.get(number) == 0.5)

        let broken = KVKey<Unencodable>("broken")
        let error = await #expect(throws: KVStoreError.self) { try await store.set(broken, value: Unencodable()) }
        #expect(error?.key == "broken")
        if case .encodingFailed = error {
        } else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
        }
        #expect(try await !store.contains(broken))

        let settings = KVKey<[Double]>("ratios")
        try await store.set(settings, value: [1, 2])
        await #expect(throws: KVStoreError.self) { try await store.set(settings, value: [1, .nan]) }
        #expect(try await store.get(settings) == [1, 2])
    }

    /// Every store reads a value back as another type exactly when the JSON `DiskKVStore` would hold for it
    /// decodes as that type: how an app update that changes a key's type finds the values stored before.
    private static func aValueIsReadWithAnotherTypeWhenItsJSONDecodesAsThatType(
        _ store: any AsyncKVStoring
    ) async throws {
        try await store.set(KVKey<String>("text"), value: "text")
        #expect(try await store.get(KVKey<Int>("text")) == nil)
        #expect(try await store.get(KVKey<TaskSettings>("text")) == nil)
        #expect(try await store.get(KVKey<String?>("text")) == .some("text"))
        #expect(try await store.get(KVKey<String>("text")) == "text")

        try await store.set(KVKey<Int>("five"), value: 5)
        #expect(try await store.get(KVKey<Int?>("five")) == .some(5))
        #expect(try await store.get(KVKey<Double>("five")) == 5.0)
        #expect(try await store.get(KVKey<Date>("five")) == Date(timeIntervalSinceReferenceDate: 5))
        #expect(try await store.get(KVKey<Bool>("five")) == nil)
        #expect(try await store.get(KVKey<String>("five")) == nil)

        try await store.set(KVKey<Int?>("seven"), value: 7)
        #expect(try await store.get(KVKey<Int>("seven")) == 7)

        try await store.set(KVKey<Bool>("flag"), value: true)
        #expect(try await store.get(KVKey<Int>("flag")) == nil)
        #expect(try await store.get(KVKey<Double>("flag")) == nil)

        try await store.set(KVKey<Double>("tenth"), value: 0.1)
        #expect(try await store.get(KVKey<Float>("tenth")) == Float(0.1))
        try await store.set(KVKey<Float>("tenth as float"), value: 0.1)
        #expect(try await store.get(KVKey<Double>("tenth as float")) == 0.1)

        // `Data` is JSON's base64 text: a base64 string reads as the bytes, a list of numbers does not.
        try await store.set(KVKey<String>("base64"), value: "aGk=")
        #expect(try await store.get(KVKey<Data>("base64")) == Data("hi".utf8))
        try await store.set(KVKey<Data>("bytes"), value: Data("hi".utf8))
        #expect(try await store.get(KVKey<String>("bytes")) == "aGk=")
        try await store.set(KVKey<[Int]>("list"), value: [1, 2])
        #expect(try await store.get(KVKey<Data>("list")) == nil)
        #expect(try await store.get(KVKey<[Double]>("list")) == [1.0, 2.0])
    }

    /// Also kills a store that truncates long keys: the long keys come in pairs that differ only at the end.
    private static func hostileKeysAreDistinctAndRoundTrip(_ store: any AsyncKVStoring) async throws {
        for (index, key) in kvHostileKeys.enumerated() {
            try await store.set(KVKey<Int>(key), value: index)
        }
        for (index, key) in kvHostileKeys.enumerated() {
            #expect(try await store.get(KVKey<Int>(key)) == index, "key \(key.prefix(40).debugDescription)")
        }
        for key in kvHostileKeys {
            try await store.remove(KVKey<Int>(key))
            #expect(try await !store.contains(KVKey<Int>(key)), "key \(key.prefix(40).debugDescription)")
        }
    }

    private static func canonicallyEquivalentKeysAreOneKey(_ store: any AsyncKVStoring) async throws {
        try await store.set(KVKey<String>("caf\u{E9}"), value: "precomposed")
        #expect(try await store.get(KVKey<String>("cafe\u{301}")) == "precomposed")
        try await store.set(KVKey<String>("cafe\u{301}"), value: "decomposed")
        #expect(try await store.get(KVKey<String>("caf\u{E9}")) == "decomposed")
    }

    private static func expectRoundTrip<Value: Codable & Sendable & Equatable>(
        _ value: Value,
        in store: any AsyncKVStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let key = KVKey<Value>("roundTrip.\(Value.self)")
        try await store.set(key, value: value)
        #expect(try await store.get(key) == value, sourceLocation: sourceLocation)
        #expect(try await store.contains(key), sourceLocation: sourceLocation)
    }
}
