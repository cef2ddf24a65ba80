import ForgeCore
import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeKVStore

struct UserDefaultsKVStoreTests {
    /// Runs `body` with a store on a fresh suite, and removes the suite afterwards.
    private func withSuite(_ body: (UserDefaultsKVStore, UserDefaults) throws -> Void) throws {
        let suite = "forge.tests.defaults.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        try body(UserDefaultsKVStore(suiteName: suite), defaults)
    }

    @Test func primitivesAreStoredNativelyAndReadableWithTheTypedGetters() throws {
        try withSuite { store, defaults in
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            try store.set(KVKey<Bool>("bool"), value: true)
            try store.set(KVKey<Int>("int"), value: 42)
            try store.set(KVKey<Double>("double"), value: 2.5)
            try store.set(KVKey<Float>("float"), value: 1.5)
            try store.set(KVKey<String>("string"), value: "hello")
            try store.set(KVKey<Date>("date"), value: date)
            try store.set(KVKey<Data>("data"), value: Data([1, 2, 3]))

            #expect(defaults.bool(forKey: "bool"))
            #expect(defaults.integer(forKey: "int") == 42)
            #expect(defaults.double(forKey: "double") == 2.5)
            #expect(defaults.float(forKey: "float") == 1.5)
            #expect(defaults.string(forKey: "string") == "hello")
            #if canImport(Darwin)
            #expect(defaults.object(forKey: "date") as? Date == date)
            #else
            // CoreFoundation on Linux writes dates in whole seconds: the store keeps a Date's seconds since 2001.
            #expect(defaults.double(forKey: "date") == date.timeIntervalSinceReferenceDate)
            #endif
            #expect(defaults.data(forKey: "data") == Data([1, 2, 3]))
        }
    }

    @Test func otherCodableValuesAreStoredAsJSON() throws {
        try withSuite { store, defaults in
            let settings = TaskSettings(theme: "dark", fontSize: 14, tags: ["a"])
            try store.set(KVKey<TaskSettings>("settings"), value: settings)
            try store.set(KVKey<URL>("url"), value: URL(fileURLWithPath: "/tmp/x"))
            try store.set(KVKey<[Int]>("list"), value: [1, 2])
            let data = try #require(defaults.data(forKey: "settings"))
            #expect(try JSONDecoder().decode(TaskSettings.self, from: data) == settings)
            #expect(defaults.data(forKey: "list").map { String(decoding: $0, as: UTF8.self) } == "[1,2]")
            #expect(store.get(KVKey<URL>("url")) == URL(fileURLWithPath: "/tmp/x"))
        }
    }

    @Test func valuesWrittenByOtherCodeAreReadable() throws {
        try withSuite { store, defaults in
            defaults.set(7, forKey: "legacy.count")
            defaults.set("legacy", forKey: "legacy.name")
            #expect(store.get(KVKey<Int>("legacy.count")) == 7)
            #expect(store.get(KVKey<Double>("legacy.count")) == 7.0)
            #expect(store.get(KVKey<String>("legacy.name")) == "legacy")
            #expect(store.get(KVKey<Int>("legacy.name")) == nil)
        }
    }

    @Test func removeAllClearsOnlyThisSuite() throws {
        let otherSuite = "forge.tests.defaults.other.\(UUID().uuidString)"
        let otherDefaults = try #require(UserDefaults(suiteName: otherSuite))
        defer { otherDefaults.removePersistentDomain(forName: otherSuite) }
        otherDefaults.set(1, forKey: "keep")
        try withSuite { store, defaults in
            try store.set(KVKey<Int>("a"), value: 1)
            try store.set(KVKey<TaskSettings>("b"), value: TaskSettings(theme: "t", fontSize: 1, tags: []))
            try store.removeAll()
            #expect(!store.contains(KVKey<Int>("a")))
            #expect(!store.contains(KVKey<TaskSettings>("b")))
            #expect(defaults.persistentDomain(forName: store.domainName)?.isEmpty ?? true)
        }
        #expect(otherDefaults.integer(forKey: "keep") == 1)
    }

    @Test func removeAllOfTheStandardDomainRemovesKeysSetSinceTheLastFlush() throws {
        let store = UserDefaultsKVStore()
        let key = KVKey<Int>("forge.tests.standard.\(UUID().uuidString)")
        defer { UserDefaults.standard.removeObject(forKey: key.key) }
        // What an earlier removeAll (or any reader of the persistent domain) did: the domain's file is read now.
        _ = store.defaults.persistentDomain(forName: store.domainName)
        try store.set(key, value: 1)
        try store.removeAll()
        #expect(!store.contains(key))
        #expect(UserDefaults.standard.object(forKey: key.key) == nil)
    }

    @Test func removeAllOfASuiteRemovesKeysSetSinceTheLastFlush() throws {
        try withSuite { store, defaults in
            _ = defaults.persistentDomain(forName: store.domainName)
            try store.set(KVKey<Int>("fresh"), value: 1)
            defaults.set(2, forKey: "fresh.other")
            try store.removeAll()
            #expect(!store.contains(KVKey<Int>("fresh")))
            #expect(defaults.object(forKey: "fresh.other") == nil)
        }
    }

    @Test func keysListsItsOwnDomainOnlyWithValuesNotYetWritten() throws {
        let otherSuite = "forge.tests.defaults.other.\(UUID().uuidString)"
        let otherDefaults = try #require(UserDefaults(suiteName: otherSuite))
        defer { otherDefaults.removePersistentDomain(forName: otherSuite) }
        otherDefaults.set(1, forKey: "theirs")
        try withSuite { store, defaults in
            defaults.register(defaults: ["registered": 1])
            try store.set(KVKey<Int>("b"), value: 1)
            try store.set(KVKey<[String]>("a"), value: ["x"])
            // Written by plain UserDefaults code beside the store: in the domain, so listed.
            defaults.set("legacy", forKey: "c")

            #expect(try store.keys() == ["a", "b", "c"])
            #expect(try UserDefaultsKVStore(suiteName: otherSuite).keys() == ["theirs"])
            try store.remove(KVKey<Int>("b"))
            #expect(try store.keys() == ["a", "c"])
            try store.removeAll()
            #expect(try store.keys() == [])
        }
    }

    @Test func keysOfTheStandardStoreHoldWhatWasSetOrRemovedSinceTheLastFlush() throws {
        let store = UserDefaultsKVStore()
        let key = KVKey<Int>("forge.tests.standard.keys.\(UUID().uuidString)")
        defer { UserDefaults.standard.removeObject(forKey: key.key) }
        try store.set(key, value: 1)
        #expect(try store.keys().contains(key.key))
        try store.remove(key)
        #expect(try !store.keys().contains(key.key))
    }

    @Test func keysLeaveOutNamesOtherCodeWroteInAnotherSpellingThanNFC() throws {
        try withSuite { store, defaults in
            defaults.set(1, forKey: "cafe\u{301}")
            try store.set(KVKey<Int>("plain"), value: 2)
            #expect(try store.keys().map { Array($0.unicodeScalars) } == [Array("plain".unicodeScalars)])
            #expect(try store.value(for: KVKey<Int>("caf\u{E9}")) == nil)
        }
    }

    @Test func readsWithAnotherTypeGiveWhatTheDiskStoreGives() async throws {
        try await withTemporaryFolder { folder in
            try withSuite { store, _ in
                let disk = DiskKVStore(directory: .custom(folder), namespace: "types")
                for kvStore in [store, disk] as [any KVStoring] {
                    try kvStore.set(KVKey<Int>("int"), value: 5)
                    try kvStore.set(KVKey<Int?>("optional"), value: 7)
                    try kvStore.set(KVKey<[Int]>("list"), value: [1, 2])
                    try kvStore.set(KVKey<Bool>("bool"), value: true)
                    try kvStore.set(KVKey<Float>("float"), value: 0.1)
                    try kvStore.set(KVKey<Double>("double"), value: 0.1)
                    try kvStore.set(KVKey<Data>("json-bytes"), value: Data("[1]".utf8))
                }
                for kvStore in [store, disk] as [any KVStoring] {
                    #expect(kvStore.get(KVKey<Int?>("int")) == .some(5))
                    #expect(kvStore.get(KVKey<Int>("optional")) == 7)
                    #expect(kvStore.get(KVKey<Data>("list")) == nil)
                    #expect(kvStore.get(KVKey<Int>("bool")) == nil)
                    #expect(kvStore.get(KVKey<Double>("bool")) == nil)
                    #expect(kvStore.get(KVKey<Double>("float")) == 0.1)
                    #expect(kvStore.get(KVKey<Float>("double")) == 0.1)
                    #expect(kvStore.get(KVKey<Data>("json-bytes")) == Data("[1]".utf8))
                    #expect(kvStore.get(KVKey<[Int]>("json-bytes")) == nil)
                }
            }
        }
    }

    @Test func aStoreOnExistingDefaultsClearsTheDomainItIsGiven() throws {
        let suite = "forge.tests.defaults.given.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = UserDefaultsKVStore(defaults: defaults, domainName: suite)
        try store.set(KVKey<Int>("x"), value: 1)
        try store.removeAll()
        #expect(defaults.object(forKey: "x") == nil)
    }

    #if !canImport(Darwin)
    /// The values in the suite's property list on disk, read without UserDefaults.
    private func propertyList(of suite: String) -> [String: Any]? {
        let url = URL(fileURLWithPath: DefaultsFileLock.preferencesFolder + "/\(suite).plist")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    }

    /// Writes `values` into `domain`'s property list as code in another process would, holding the stores' lock so
    /// that no flush of this process runs meanwhile (a flush writes every domain the process holds): merged into
    /// what the file holds when `merging`, else in place of it, and counted as a store's write when `counted`.
    private func writeAsAnotherProcess(
        _ values: [String: Any],
        into domain: String,
        merging: Bool,
        counted: Bool
    ) throws {
        try DefaultsFileLock(domainName: domain)
            .withLock { held in
                let merged = (merging ? propertyList(of: domain) ?? [:] : [:]).merging(values) { $1 }
                let data = try PropertyListSerialization.data(fromPropertyList: merged, format: .xml, options: 0)
                try data.write(to: URL(fileURLWithPath: DefaultsFileLock.preferencesFolder + "/\(domain).plist"))
                if counted { held.countWrite() }
            }
    }

    @Test func flushReturnsOnceTheValueIsInThePropertyList() throws {
        try withSuite { store, _ in
            try store.set(KVKey<Int>("count"), value: 42)
            try store.flush()
            #expect(propertyList(of: store.domainName)?["count"] as? Int == 42)
            try store.remove(KVKey<Int>("count"))
            try store.flush()
            #expect(propertyList(of: store.domainName)?["count"] == nil)
        }
    }

    @Test func aBurstOfSetsIsRewrittenAndEveryValueLands() throws {
        try withSuite { store, _ in
            let count = 1_000
            for index in 0..<count { try store.set(KVKey<Int>("key\(index)"), value: index) }
            try store.flush()
            #expect(store.synchronizer.counts.rewrites >= 1)
            #expect(propertyList(of: store.domainName)?.count == count)
            #expect(store.get(KVKey<Int>("key\(count - 1)")) == count - 1)
        }
    }

    /// How many rewrites a burst of sets costs: far fewer than the sets, as the 10 ms flushes gather them, but how many
    /// flushes a burst spans depends on the machine's speed and load, so the test runs only with
    /// `FORGE_TIMING_TESTS=1`, and reports a burst that cost more than one rewrite per two sets as a warning.
    @Test(.enabled(if: TimingTests.areEnabled, "a measurement of time: set FORGE_TIMING_TESTS=1 to run it"))
    func aBurstOfSetsCostsFarFewerRewritesThanSets() throws {
        try withSuite { store, _ in
            let count = 1_000
            for index in 0..<count { try store.set(KVKey<Int>("key\(index)"), value: index) }
            try store.flush()
            let rewrites = store.synchronizer.counts.rewrites
            print("UserDefaultsKVStore: \(rewrites) rewrites for a burst of \(count) sets")
            if rewrites > count / 2 {
                Issue.record("\(rewrites) rewrites for \(count) sets: more than one per two", severity: .warning)
            }
        }
    }

    @Test func aFlushThatCannotWriteThrowsAndTheNextOneWritesWhatWasPending() throws {
        try withSuite { store, _ in
            // A folder where the property list belongs: UserDefaults can neither read nor write it.
            let plist = DefaultsFileLock.preferencesFolder + "/\(store.domainName).plist"
            try FileManager.default.createDirectory(atPath: plist, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: plist) }
            try store.set(KVKey<Int>("count"), value: 7)
            #expect(throws: KVStoreError.flushFailed(domain: store.domainName, underlying: .isFolder)) {
                try store.flush()
            }
            #expect(store.get(KVKey<Int>("count")) == 7)

            try FileManager.default.removeItem(atPath: plist)
            try store.flush()
            #expect(propertyList(of: store.domainName)?["count"] as? Int == 7)
        }
    }

    @Test func aChangeThatWritesNothingNewFlushesWhileAnotherDomainCannotBeWritten() throws {
        try withSuite { broken, _ in
            try withSuite { store, _ in
                try store.set(KVKey<Int>("count"), value: 1)
                try store.flush()
                // Another domain of the process cannot be written, so `UserDefaults.synchronize()` reports failure
                // for every domain, this store's too.
                let plist = DefaultsFileLock.preferencesFolder + "/\(broken.domainName).plist"
                try FileManager.default.createDirectory(atPath: plist, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: plist) }
                try broken.set(KVKey<Int>("count"), value: 7)

                // Removing a key that is not there leaves the property list as it is: it holds every change.
                try store.remove(KVKey<Int>("missing"))
                try store.flush()
                #expect(try store.keys() == ["count"])
            }
        }
    }

    @Test func aReadLoadsThePropertyListAgainOnlyWhenItChanged() throws {
        try withSuite { store, _ in
            try store.set(KVKey<Int>("count"), value: 1)
            try store.flush()
            #expect(store.get(KVKey<Int>("count")) == 1)
            let reloads = store.synchronizer.counts.reloads
            for _ in 0..<100 { #expect(store.get(KVKey<Int>("count")) == 1) }
            #expect(store.synchronizer.counts.reloads == reloads)

            // What plain UserDefaults code in another process does: it rewrites the file, and counts nothing.
            let changed: [String: Any] = ["count": 2, "other": "written elsewhere"]
            try writeAsAnotherProcess(changed, into: store.domainName, merging: false, counted: false)
            #expect(store.get(KVKey<Int>("count")) == 2)
            #expect(store.get(KVKey<String>("other")) == "written elsewhere")
            #expect(store.synchronizer.counts.reloads == reloads + 1)
        }
    }

    @Test func aFlushOfOneDomainDoesNotMakeTheStoresOfAnotherReadTheirFileAgain() throws {
        try withSuite { writer, _ in
            try withSuite { reader, _ in
                try reader.set(KVKey<Int>("count"), value: 1)
                try reader.flush()
                #expect(reader.get(KVKey<Int>("count")) == 1)
                let reloads = reader.synchronizer.counts.reloads
                try writer.set(KVKey<Int>("count"), value: 2)
                try writer.flush()
                #expect(reader.get(KVKey<Int>("count")) == 1)
                #expect(reader.synchronizer.counts.reloads == reloads)
            }
        }
    }

    @Test func aFlushOfADomainSharingTheSlotOfAnotherDoesNotMakeItsStoresReadTheirFileAgain() throws {
        try withSuite { reader, _ in
            // A domain whose modification times the lock file keeps in the reader's slot.
            let slot = DefaultsFileLock.slotOffset(of: reader.domainName)
            let neighbour = try #require(
                (0..<1_000_000).lazy.map { "\(reader.domainName).neighbour.\($0)" }
                    .first { DefaultsFileLock.slotOffset(of: $0) == slot }
            )
            let neighbourDefaults = try #require(UserDefaults(suiteName: neighbour))
            defer { neighbourDefaults.removePersistentDomain(forName: neighbour) }
            let writer = UserDefaultsKVStore(suiteName: neighbour)
            try reader.set(KVKey<Int>("count"), value: 1)
            try reader.flush()
            #expect(reader.get(KVKey<Int>("count")) == 1)
            let reloads = reader.synchronizer.counts.reloads
            for value in 2...4 {
                try writer.set(KVKey<Int>("count"), value: value)
                try writer.flush()
            }
            #expect(reader.get(KVKey<Int>("count")) == 1)
            #expect(reader.synchronizer.counts.reloads == reloads)
        }
    }

    @Test func aReadOfAnUnchangedFileAnswersFromMemoryAfterOneCheckWithoutTheLock() throws {
        try withSuite { store, _ in
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            try store.flush()
            // Counted from before the first read: a flush of another store between that read and the next makes the
            // next take the lock.
            let synchronizationsBefore = DefaultsSynchronizer.synchronizationCount
            // The first read after the flush takes the lock, and has UserDefaults load the domain under it.
            #expect(store.get(key) == 1)
            let before = store.synchronizer.counts
            for _ in 0..<100 { #expect(store.get(key) == 1) }
            #expect(store.contains(key))
            let after = store.synchronizer.counts
            // A flush of another test's store meanwhile (tests may run in parallel) makes one read take the lock.
            let otherFlushes = Int(DefaultsSynchronizer.synchronizationCount - synchronizationsBefore)
            #expect(after.reloads == before.reloads)
            #expect(after.lockedReads - before.lockedReads <= otherFlushes)
            #expect(after.checks - before.checks >= 101 - otherFlushes)
            #expect(after.checks - before.checks <= 101 + otherFlushes)
        }
    }

    @Test func aFlushInThisProcessHasTheNextReadLoadTheDomainUnderTheLockWithoutReloadingIt() throws {
        try withSuite { store, _ in
            try withSuite { other, _ in
                try store.set(KVKey<Int>("count"), value: 1)
                try store.flush()
                #expect(store.get(KVKey<Int>("count")) == 1)
                let before = store.synchronizer.counts
                // Its synchronize() has UserDefaults drop the domains without pending changes, the store's too.
                try other.set(KVKey<Int>("count"), value: 2)
                try other.flush()
                #expect(store.get(KVKey<Int>("count")) == 1)
                let after = store.synchronizer.counts
                #expect(after.lockedReads > before.lockedReads)
                #expect(after.reloads == before.reloads)
            }
        }
    }

    @Test func aReadSeesAStoreOfAnotherProcessRewriteTheFileToTheSameSizeAndModificationTime() throws {
        try withSuite { store, _ in
            let key = KVKey<Int>("count")
            let plist = DefaultsFileLock.propertyListPath(of: store.domainName)
            try writeAsAnotherProcess(["count": 1], into: store.domainName, merging: false, counted: true)
            #expect(store.get(key) == 1)
            let seen = try #require(try Descriptor.version(ofFileAt: plist))
            // What a store in another process does within one tick of a coarse clock: the file keeps its inode, its
            // size and its modification time; only the store's record of the write moves the time.
            try DefaultsFileLock(domainName: store.domainName)
                .withLock { held in
                    let data = try PropertyListSerialization.data(
                        fromPropertyList: ["count": 2],
                        format: .xml,
                        options: 0
                    )
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: plist))
                    try handle.truncate(atOffset: 0)
                    try handle.write(contentsOf: data)
                    try handle.close()
                    try Descriptor.setModificationTime(
                        ofFileAt: plist,
                        seconds: seen.modificationSeconds,
                        nanoseconds: seen.modificationNanoseconds
                    )
                    #expect(try Descriptor.version(ofFileAt: plist) == seen)
                    held.countWrite()
                }
            #expect(try Descriptor.version(ofFileAt: plist) != seen)
            #expect(store.get(key) == 2)
        }
    }

    @Test func aReadSeesThePropertyListReplacedOrRemovedByAnotherProcess() throws {
        try withSuite { store, _ in
            let key = KVKey<Int>("count")
            try store.set(key, value: 1)
            try store.flush()
            #expect(store.get(key) == 1)
            let plist = URL(fileURLWithPath: DefaultsFileLock.propertyListPath(of: store.domainName))
            // Replaced by a rename, as editors save: the file the store holds open loses its name.
            let data = try PropertyListSerialization.data(fromPropertyList: ["count": 2], format: .xml, options: 0)
            try data.write(to: plist, options: .atomic)
            #expect(store.get(key) == 2)
            try FileManager.default.removeItem(at: plist)
            #expect(store.get(key) == nil)
            #expect(!store.contains(key))
        }
    }

    @Test(.enabled(if: FolderWatch.isSupported, "no folder notifications on this platform"))
    func aNoticeOfTheWatchHasTheNextReadTakeTheLock() async throws {
        let suite = "forge.tests.defaults.\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = UserDefaultsKVStore(suiteName: suite)
        try store.set(KVKey<Int>("count"), value: 1)
        try store.flush()
        #expect(store.get(KVKey<Int>("count")) == 1)
        let (notices, notice) = AsyncStream<Void>.makeStream()
        let observation = store.synchronizer.observeOutsideChanges { notice.yield() }
        defer { observation.end() }
        let before = store.synchronizer.counts
        // A writer closing the file, which it may not have recorded yet: opened to write, closed, left as it was.
        let plist = DefaultsFileLock.propertyListPath(of: suite)
        try FileHandle(forWritingTo: URL(fileURLWithPath: plist)).close()
        #expect(await StreamReader(notices).next() != nil)
        #expect(store.get(KVKey<Int>("count")) == 1)
        let after = store.synchronizer.counts
        #expect(after.lockedReads > before.lockedReads)
        #expect(after.reloads == before.reloads)
    }

    @Test func aReloadKeepsTheChangesNotYetWritten() throws {
        // Flushes behind wait, so that "mine" is still pending when the other process's file lands.
        DefaultsSynchronizer.queue.suspend()
        defer { DefaultsSynchronizer.queue.resume() }
        try withSuite { store, _ in
            try store.set(KVKey<Int>("mine"), value: 1)
            // A store in another process: it reads the file and adds its key.
            try writeAsAnotherProcess(["theirs": 2], into: store.domainName, merging: true, counted: true)
            #expect(store.get(KVKey<Int>("theirs")) == 2)
            #expect(store.get(KVKey<Int>("mine")) == 1)
            try store.flush()
            #expect(propertyList(of: store.domainName)?["mine"] as? Int == 1)
            #expect(propertyList(of: store.domainName)?["theirs"] as? Int == 2)
        }
    }

    @Test func keysListsWhatAnotherProcessWroteToTheDomain() throws {
        try withSuite { store, _ in
            try store.set(KVKey<Int>("mine"), value: 1)
            try store.flush()
            try writeAsAnotherProcess(["theirs": 2], into: store.domainName, merging: true, counted: true)
            #expect(try store.keys() == ["mine", "theirs"])
            #expect(try UserDefaultsKVStore(suiteName: store.domainName).keys() == ["mine", "theirs"])
        }
    }

    @Test func removeAllOfALargeDomainRemovesItsPropertyListAndNothingElse() throws {
        let otherSuite = "forge.tests.defaults.other.\(UUID().uuidString)"
        let otherDefaults = try #require(UserDefaults(suiteName: otherSuite))
        defer { otherDefaults.removePersistentDomain(forName: otherSuite) }
        otherDefaults.set(1, forKey: "keep")
        otherDefaults.synchronize()
        try withSuite { store, defaults in
            let count = 10_000
            for index in 0..<count { try store.set(KVKey<Int>("key\(index)"), value: index) }
            try store.flush()
            #expect(propertyList(of: store.domainName)?.count == count)
            // Set since the last flush: removed too.
            try store.set(KVKey<Int>("late"), value: 1)
            try store.removeAll()
            #expect(propertyList(of: store.domainName) == nil)
            #expect(!store.contains(KVKey<Int>("key0")))
            #expect(!store.contains(KVKey<Int>("key\(count - 1)")))
            #expect(!store.contains(KVKey<Int>("late")))
            #expect(defaults.object(forKey: "key1") == nil)
            try store.flush()
            #expect(propertyList(of: store.domainName) == nil)
        }
        #expect(otherDefaults.integer(forKey: "keep") == 1)
        #expect(propertyList(of: otherSuite)?["keep"] as? Int == 1)
    }
    #endif

    @Test func theStandardStoreUsesTheAppDomain() {
        let store = UserDefaultsKVStore()
        #expect(store.defaults === UserDefaults.standard)
        #expect(store.domainName == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
    }
}
