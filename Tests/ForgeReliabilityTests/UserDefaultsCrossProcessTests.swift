import ForgeKVStore
import Foundation
import Testing

/// What one process sees of the values another process stored with `UserDefaultsKVStore`: each test runs the
/// `ForgeCrashWriter defaults` child (see `DefaultsCommand`), which makes one store call and exits normally.
struct UserDefaultsCrossProcessTests {
    /// Runs the child with `arguments` after `defaults`, and returns what it printed, trimmed.
    private func child(_ arguments: String...) throws -> String {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        let result = try Process.runToEnd(writer, arguments: ["defaults"] + arguments)
        #expect(result.status == 0, "ForgeCrashWriter defaults \(arguments.joined(separator: " ")) failed")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `body` with a fresh suite name and a store on it, and removes the suite afterwards.
    private func withSuite(_ body: (String, UserDefaultsKVStore) throws -> Void) throws {
        let suite = "forge.tests.processes.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try body(suite, UserDefaultsKVStore(suiteName: suite))
    }

    @Test func aValueSetInAProcessThatExitsIsReadByTheNextProcess() throws {
        try withSuite { suite, store in
            _ = try child(suite, "set", "count", "int", "42")
            #expect(try child(suite, "get", "count", "int") == "42")
            #expect(store.get(KVKey<Int>("count")) == 42)
        }
    }

    @Test func aValueSetInTheStandardDomainIsReadByTheNextProcess() throws {
        let key = "forge.tests.standard.\(UUID().uuidString)"
        defer { _ = try? child("-", "remove", key, "int") }
        _ = try child("-", "set", key, "int", "7")
        #expect(try child("-", "get", key, "int") == "7")
    }

    @Test func aDateReadsBackExactlyInAnotherProcess() throws {
        try withSuite { suite, store in
            let date = Date(timeIntervalSinceReferenceDate: 786_000_123.456789)
            try store.set(KVKey<Date>("mine"), value: date)
            #expect(try child(suite, "get", "mine", "date") == "786000123.456789")
            _ = try child(suite, "set", "theirs", "date", "786000123.456789")
            #expect(store.get(KVKey<Date>("theirs")) == date)
        }
    }

    @Test func aSuiteStoreSeesWhatAnotherProcessWrote() throws {
        try withSuite { suite, store in
            let key = KVKey<String>("shared")
            #expect(store.get(key) == nil)
            _ = try child(suite, "set", "shared", "string", "first")
            #expect(store.get(key) == "first")
            #expect(store.contains(key))
            _ = try child(suite, "set", "shared", "string", "second")
            #expect(store.get(key) == "second")
            try store.set(key, value: "third")
            #expect(try child(suite, "get", "shared", "string") == "third")
            _ = try child(suite, "remove", "shared", "string")
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
        }
    }

    @Test func removeAllRemovesWhatAnotherProcessWrote() throws {
        try withSuite { suite, store in
            try store.set(KVKey<Int>("mine"), value: 1)
            _ = try child(suite, "set", "theirs", "int", "2")
            try store.removeAll()
            #expect(!store.contains(KVKey<Int>("theirs")))
            #expect(try child(suite, "get", "theirs", "int") == "nil")
            #expect(try child(suite, "get", "mine", "int") == "nil")
        }
    }

    @Test func removeAllOfTheStandardDomainIsSeenByTheNextProcess() throws {
        let store = UserDefaultsKVStore()
        let key = KVKey<Int>("forge.tests.standard.\(UUID().uuidString)")
        try store.set(key, value: 1)
        #expect(try child(store.domainName, "get", key.key, "int") == "1")
        try store.removeAll()
        #expect(try child(store.domainName, "get", key.key, "int") == "nil")
    }

    @Test func processesWritingAtTheSameTimeLoseNoKeyAndReadersSeeNoGap() throws {
        try withSuite { suite, store in
            let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
            let count = 150
            let writers = try ["a", "b"]
                .map { key in
                    try Process.run(writer, arguments: ["defaults", suite, "count", key, "int", "\(count)"])
                }
            // Read while both write: once a value is seen, a later read never gives nil or an older value.
            var lastSeen = 0
            var gaps: [String] = []
            while writers.contains(where: \.isRunning) {
                let value = store.get(KVKey<Int>("a"))
                if let value {
                    if value < lastSeen { gaps.append("\(lastSeen) then \(value)") }
                    lastSeen = value
                } else if lastSeen > 0 {
                    gaps.append("\(lastSeen) then nil")
                }
            }
            for process in writers {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
            }
            #expect(gaps.isEmpty, "reads of a while it was written: \(gaps.prefix(5))")
            #expect(store.get(KVKey<Int>("a")) == count)
            #expect(store.get(KVKey<Int>("b")) == count)
        }
    }
}
