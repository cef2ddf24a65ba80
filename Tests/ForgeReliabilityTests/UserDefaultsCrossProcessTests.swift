import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// What one process sees of the values another process stored with `UserDefaultsKVStore`.
///
/// Each test runs the `ForgeCrashWriter defaults` child (see `DefaultsCommand`), which makes one store call and exits
/// normally, so what it set is written by the store's exit handler. This process, which goes on, calls `flush()`
/// before a child reads what it set.
struct UserDefaultsCrossProcessTests {
    /// Runs the child with `arguments` after `defaults`, and returns what it printed, trimmed.
    private func child(_ arguments: String...) async throws -> String {
        let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
        let result = try await onOwnThread { try Process.runToEnd(writer, arguments: ["defaults"] + arguments) }
        #expect(result.status == 0, "ForgeCrashWriter defaults \(arguments.joined(separator: " ")) failed")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `body` with a fresh suite name and a store on it, and removes the suite afterwards.
    private func withSuite(_ body: (String, UserDefaultsKVStore) async throws -> Void) async throws {
        let suite = "forge.tests.processes.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try await body(suite, UserDefaultsKVStore(suiteName: suite))
    }

    @Test func aValueSetInAProcessThatExitsIsReadByTheNextProcess() async throws {
        try await withSuite { suite, store in
            _ = try await child(suite, "set", "count", "int", "42")
            #expect(try await child(suite, "get", "count", "int") == "42")
            #expect(store.get(KVKey<Int>("count")) == 42)
        }
    }

    @Test func aValueSetInTheStandardDomainIsReadByTheNextProcess() async throws {
        let key = "forge.tests.standard.\(UUID().uuidString)"
        _ = try await child("-", "set", key, "int", "7")
        let read = try await child("-", "get", key, "int")
        _ = try await child("-", "remove", key, "int")
        #expect(read == "7")
    }

    @Test func aDateReadsBackExactlyInAnotherProcess() async throws {
        try await withSuite { suite, store in
            let date = Date(timeIntervalSinceReferenceDate: 786_000_123.456789)
            try store.set(KVKey<Date>("mine"), value: date)
            try store.flush()
            #expect(try await child(suite, "get", "mine", "date") == "786000123.456789")
            _ = try await child(suite, "set", "theirs", "date", "786000123.456789")
            #expect(store.get(KVKey<Date>("theirs")) == date)
        }
    }

    @Test func settingBackTheValueThisProcessLastReadIsWrittenAfterAnotherProcessChangedIt() async throws {
        try await withSuite { suite, store in
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            try store.flush()
            #expect(store.get(key) == 1)
            _ = try await child(suite, "set", "count", "int", "2")
            // Equal to what this process last read, but not to the file: a change all the same.
            try store.set(key, value: 1)
            try store.flush()
            #expect(try await child(suite, "get", "count", "int") == "1")
            #expect(store.get(key) == 1)
        }
    }

    @Test func aSuiteStoreSeesWhatAnotherProcessWrote() async throws {
        try await withSuite { suite, store in
            let key = KVKey<String>("shared")
            #expect(store.get(key) == nil)
            _ = try await child(suite, "set", "shared", "string", "first")
            #expect(store.get(key) == "first")
            #expect(store.contains(key))
            _ = try await child(suite, "set", "shared", "string", "second")
            #expect(store.get(key) == "second")
            try store.set(key, value: "third")
            try store.flush()
            #expect(try await child(suite, "get", "shared", "string") == "third")
            _ = try await child(suite, "remove", "shared", "string")
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
        }
    }

    @Test func aFlushedValueIsReadByAnotherProcessWhileThisOneRuns() async throws {
        try await withSuite { suite, store in
            try store.set(KVKey<Int>("count"), value: 1)
            try store.flush()
            #expect(try await child(suite, "get", "count", "int") == "1")
            try store.set(KVKey<Int>("count"), value: 2)
            try store.flush()
            #expect(try await child(suite, "get", "count", "int") == "2")
        }
    }

    @Test func aReadSeesAnotherProcessRewriteTheFileToTheSameSize() async throws {
        try await withSuite { suite, store in
            // 1 and 2 make property lists of one size: only the modification time a store's write moves past every
            // one seen may tell them apart where the file system keeps modification times in coarse ticks.
            _ = try await child(suite, "set", "count", "int", "1")
            #expect(store.get(KVKey<Int>("count")) == 1)
            _ = try await child(suite, "set", "count", "int", "2")
            #expect(store.get(KVKey<Int>("count")) == 2)
            _ = try await child(suite, "set", "count", "int", "3")
            #expect(store.contains(KVKey<Int>("count")))
            #expect(store.get(KVKey<Int>("count")) == 3)
        }
    }

    @Test func removeAllRemovesWhatAnotherProcessWrote() async throws {
        try await withSuite { suite, store in
            try store.set(KVKey<Int>("mine"), value: 1)
            _ = try await child(suite, "set", "theirs", "int", "2")
            try store.removeAll()
            #expect(!store.contains(KVKey<Int>("theirs")))
            #expect(try await child(suite, "get", "theirs", "int") == "nil")
            #expect(try await child(suite, "get", "mine", "int") == "nil")
        }
    }

    @Test func removeAllOfTheStandardDomainIsSeenByTheNextProcess() async throws {
        let store = UserDefaultsKVStore()
        let key = KVKey<Int>("forge.tests.standard.\(UUID().uuidString)")
        try store.set(key, value: 1)
        try store.flush()
        #expect(try await child(store.domainName, "get", key.key, "int") == "1")
        try store.removeAll()
        #expect(try await child(store.domainName, "get", key.key, "int") == "nil")
    }

    @Test func processesWritingAtTheSameTimeLoseNoKeyAndReadersSeeNoGap() async throws {
        try await withSuite { suite, store in
            let writer = try #require(CrashHarness.writerURL(), "the ForgeCrashWriter executable is missing")
            let count = 150
            let writers = try ["a", "b"]
                .map { key in
                    try Process.run(writer, arguments: ["defaults", suite, "count", key, "int", "\(count)"])
                }
            // Read while both write: once a value is seen, a later read never gives nil or an older value.
            // On a thread of its own: the loop reads for as long as the writers run.
            let gaps = try await onOwnThread {
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
                for process in writers { process.waitUntilExit() }
                return gaps
            }
            for process in writers {
                #expect(process.terminationStatus == 0)
            }
            #expect(gaps.isEmpty, "reads of a while it was written: \(gaps.prefix(5))")
            #expect(store.get(KVKey<Int>("a")) == count)
            #expect(store.get(KVKey<Int>("b")) == count)
        }
    }
}
