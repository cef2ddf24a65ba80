import ForgeCore
import Foundation
import Testing

@testable import ForgeKVStore

#if !canImport(Darwin)
/// The record of the property lists' modification times the stores keep in the lock file: a store's write always
/// leaves a modification time past every one a store has compared with.
struct DefaultsFileLockTests {
    /// Runs `body` with a fresh domain, its lock and its property list's path, and removes the file afterwards.
    private func withDomain(_ body: (DefaultsFileLock, String) throws -> Void) throws {
        let domain = "forge.tests.defaults.lock.\(UUID().uuidString)"
        let plist = DefaultsFileLock.propertyListPath(of: domain)
        defer { try? FileManager.default.removeItem(atPath: plist) }
        try body(DefaultsFileLock(domainName: domain), plist)
    }

    /// Writes a property list of `value` at `path`.
    private func write(_ value: Int, to path: String) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["count": value], format: .xml, options: 0)
        try data.write(to: URL(fileURLWithPath: path))
    }

    @Test func aWriteWithinTheTickOfATimeAStoreSawGetsALaterTime() throws {
        try withDomain { lock, plist in
            try write(1, to: plist)
            let written = try #require(try Descriptor.version(ofFileAt: plist))
            // A store saw the file with a time later than the write's: as if the write came within the same tick of
            // the clock as the one the store saw. An hour later, so that the next write below comes before it however
            // slowly a loaded machine runs this test (a second was once passed under ThreadSanitizer).
            var seen = written
            seen.modificationSeconds += 3600
            lock.withLock { $0.recordSeen(seen) }

            lock.withLock { $0.countWrite() }
            let recorded = try #require(try Descriptor.version(ofFileAt: plist))
            #expect(recorded.modificationSeconds == seen.modificationSeconds)
            #expect(recorded.modificationNanoseconds == seen.modificationNanoseconds + 1)
            #expect(recorded.size == written.size && recorded.inode == written.inode)

            // The next write, as early, gets a time past that one too.
            try write(2, to: plist)
            lock.withLock { $0.countWrite() }
            let next = try #require(try Descriptor.version(ofFileAt: plist))
            #expect(next.modificationSeconds == seen.modificationSeconds)
            #expect(next.modificationNanoseconds == seen.modificationNanoseconds + 2)
        }
    }

    @Test func aWriteAlreadyPastEveryTimeSeenKeepsItsTime() throws {
        try withDomain { lock, plist in
            try write(1, to: plist)
            var seen = try #require(try Descriptor.version(ofFileAt: plist))
            seen.modificationSeconds -= 1
            lock.withLock { $0.recordSeen(seen) }
            let written = try #require(try Descriptor.version(ofFileAt: plist))
            lock.withLock { $0.countWrite() }
            #expect(try Descriptor.version(ofFileAt: plist) == written)
        }
    }

    @Test func aWriteOfNoFileRecordsNothing() throws {
        try withDomain { lock, plist in
            lock.withLock { $0.countWrite() }
            let version = try Descriptor.version(ofFileAt: plist)
            #expect(version == nil)
        }
    }
}
#endif
