import ForgeKVStore
import Foundation
import Testing

/// The behaviour every ``KVStoring`` shares, run against each store the package ships.
@Suite("KVStoring behaviour")
struct KVStoringBehaviourTests {
    @Test(arguments: KVBackend.allCases)
    func getReturnsNilWhenNothingIsStored(backend: KVBackend) async throws {
        try await backend.withStore { store in
            #expect(store.get(KVKey<Int>("taskCount")) == nil)
            #expect(!store.contains(KVKey<Int>("taskCount")))
        }
    }

    @Test(arguments: KVBackend.allCases)
    func everySupportedTypeRoundTrips(backend: KVBackend) async throws {
        try await backend.withStore { store in
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
    }

    @Test(arguments: KVBackend.allCases)
    func storedNilOptionalIsContainedAndReadsAsNil(backend: KVBackend) async throws {
        try await backend.withStore { store in
            let key = KVKey<String?>("taskflow.projectName")
            try store.set(key, value: nil)
            #expect(store.contains(key))
            let read: String?? = store.get(key)
            #expect(read == .some(.none))
        }
    }

    @Test(arguments: KVBackend.allCases)
    func setReplacesThePreviousValue(backend: KVBackend) async throws {
        try await backend.withStore { store in
            let key = KVKey<String>("projectName")
            try store.set(key, value: "first")
            try store.set(key, value: "second")
            #expect(store.get(key) == "second")
        }
    }

    @Test(arguments: KVBackend.allCases)
    func removeMakesTheKeyUnset(backend: KVBackend) async throws {
        try await backend.withStore { store in
            let key = KVKey<Bool>("isActive")
            let other = KVKey<Bool>("isActiveToo")
            try store.set(key, value: true)
            try store.set(other, value: true)
            try store.remove(key)
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
            #expect(store.get(other) == true)
        }
    }

    @Test(arguments: KVBackend.allCases)
    func removingAnUnsetKeySucceeds(backend: KVBackend) async throws {
        try await backend.withStore { store in
            try store.remove(KVKey<Int>("never.set"))
        }
    }

    @Test(arguments: KVBackend.allCases)
    func removeAllClearsEveryKey(backend: KVBackend) async throws {
        try await backend.withStore { store in
            try store.set(KVKey<Int>("a"), value: 1)
            try store.set(KVKey<String>("b"), value: "hello")
            try store.set(KVKey<TaskSettings>("c"), value: TaskSettings(theme: "x", fontSize: 1, tags: []))
            try store.removeAll()
            #expect(store.get(KVKey<Int>("a")) == nil)
            #expect(store.get(KVKey<String>("b")) == nil)
            #expect(!store.contains(KVKey<TaskSettings>("c")))
            try store.set(KVKey<Int>("a"), value: 2)
            #expect(store.get(KVKey<Int>("a")) == 2)
        }
    }

    @Test(arguments: KVBackend.allCases)
    func removeAllOnAnEmptyStoreSucceeds(backend: KVBackend) async throws {
        try await backend.withStore { store in
            try store.removeAll()
        }
    }

    @Test(arguments: KVBackend.allCases)
    func unencodableValueThrowsAndKeepsTheStoredValue(backend: KVBackend) async throws {
        try await backend.withStore { store in
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
    }

    @Test(arguments: KVBackend.allCases)
    func valueOfAnotherTypeReadsAsNil(backend: KVBackend) async throws {
        try await backend.withStore { store in
            try store.set(KVKey<String>("shared"), value: "text")
            #expect(store.get(KVKey<Int>("shared")) == nil)
            #expect(store.get(KVKey<TaskSettings>("shared")) == nil)
            #expect(store.get(KVKey<String>("shared")) == "text")
        }
    }

    @Test(arguments: KVBackend.allCases)
    func hostileKeysAreDistinctAndRoundTrip(backend: KVBackend) async throws {
        try await backend.withStore { store in
            for (index, key) in hostileKeys.enumerated() {
                try store.set(KVKey<Int>(key), value: index)
            }
            for (index, key) in hostileKeys.enumerated() {
                #expect(store.get(KVKey<Int>(key)) == index, "key \(key.debugDescription)")
            }
            for key in hostileKeys {
                try store.remove(KVKey<Int>(key))
                #expect(!store.contains(KVKey<Int>(key)), "key \(key.debugDescription)")
            }
        }
    }

    @Test(arguments: KVBackend.allCases)
    func canonicallyEquivalentKeysAreOneKey(backend: KVBackend) async throws {
        try await backend.withStore { store in
            try store.set(KVKey<String>("caf\u{E9}"), value: "precomposed")
            #expect(store.get(KVKey<String>("cafe\u{301}")) == "precomposed")
            try store.set(KVKey<String>("cafe\u{301}"), value: "decomposed")
            #expect(store.get(KVKey<String>("caf\u{E9}")) == "decomposed")
        }
    }

    @Test(arguments: KVBackend.allCases)
    func concurrentWritesAllLand(backend: KVBackend) async throws {
        try await backend.withStore { store in
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        for index in 0..<25 {
                            try? store.set(KVKey<Int>("task\(task).item\(index)"), value: task * 100 + index)
                            try? store.set(KVKey<Int>("contended"), value: task)
                            _ = store.get(KVKey<Int>("contended"))
                        }
                    }
                }
            }
            for task in 0..<16 {
                for index in 0..<25 {
                    #expect(store.get(KVKey<Int>("task\(task).item\(index)")) == task * 100 + index)
                }
            }
            let contended = try #require(store.get(KVKey<Int>("contended")))
            #expect((0..<16).contains(contended))
        }
    }

    private func expectRoundTrip<Value: Codable & Sendable & Equatable>(
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
