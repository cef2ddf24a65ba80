import ForgeSQLite
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A `ForgeSQLiteCrashWriter rotate` child changes a namespace's master key and is SIGKILLed part-way, again and again,
/// from inside its transaction to after its commit: after each kill exactly one key opens the namespace and reads every
/// secret, running the rotation again finishes it, and the namespace beside it is as it was.
///
/// `FORGE_CRASH_ITERATIONS` sets the number of kills (20 by default). Nothing waits on a clock.
struct SQLiteRotationCrashTests {
    /// The secrets of the rotated namespace: 40, so a kill lands inside the transaction most times.
    static let secrets = (0..<40).map { (key: "account.name-\($0)", value: "s3cr3t-value-\($0)") }

    /// A key, as the child's arguments name it, and as this process opens it.
    private static func key(_ number: Int, in folder: URL) -> (argument: String, masterKey: MasterKey) {
        switch number % 4 {
        case 1:
            let url = folder.appendingPathComponent("keys/\(number).key")
            return ("keyfile:" + url.path, .keyFile(url))
        case 3 where number % 8 == 7:
            return ("passphrase:words \(number)", .passphrase("words \(number)"))
        default:
            let byte = UInt8(number % 250 + 1)
            return ("symmetric:\(byte)", .symmetric(SymmetricKey(data: Data(repeating: byte, count: 32))))
        }
    }

    /// Whether the namespace opens with `key`, and then that it reads every secret.
    private static func opens(_ file: URL, _ key: MasterKey, _ context: String) -> Bool {
        let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: key)
        guard (try? store.prepare()) != nil else { return false }
        let reads = secrets.allSatisfy { (try? store.get(CryptKey<String>(key: $0.key))) == $0.value }
        #expect(reads, "\(context): a secret does not read")
        #expect((try? store.itemCount()) == secrets.count, "\(context)")
        return true
    }

    @Test func aRotationSIGKILLedAtAnyMomentLeavesOneKeyOpeningEverySecretAndARerunFinishesIt() async throws {
        let writer = try #require(SQLiteCrashSafetyTests.writerURL(), "ForgeSQLiteCrashWriter was not built")
        let iterations = ProcessInfo.processInfo.environment["FORGE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 20
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            var old = Self.key(0, in: folder)
            let store = SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: old.masterKey)
            for secret in Self.secrets { try store.set(secret.value, for: CryptKey<String>(key: secret.key)) }
            let beside = SQLiteCrypt(fileURL: file, namespace: "beside", masterKey: old.masterKey)
            try beside.set("theirs", for: CryptKey<String>(key: "their.key"))
            let besideRows = try SQLiteCryptRotationTests.rows(file).filter { $0.key.hasPrefix("beside/") }
            // Lines: began, one per secret, switched, finished, done.
            let lineCount = Self.secrets.count + 4
            var killedInside = 0

            for iteration in 0..<iterations {
                let new = Self.key(iteration + 1, in: folder)
                let linesBeforeKill = (iteration * 13) % lineCount
                let arguments = [file.path, "rotate", "secrets", old.argument, new.argument]
                let (lines, _) = try await onOwnThread {
                    try SQLiteCrashSafetyTests.runAndKill(writer, arguments, after: linesBeforeKill)
                }
                let context = "kill \(iteration) after \(lines.count) lines"
                if !lines.contains("switched") { killedInside += 1 }

                let withOld = Self.opens(file, old.masterKey, context + ", old key")
                let withNew = Self.opens(file, new.masterKey, context + ", new key")
                #expect(withOld != withNew, "\(context): the old key opens: \(withOld), the new key: \(withNew)")
                if lines.contains("switched") { #expect(withNew, "\(context): committed, yet the new key fails") }

                try SQLiteCrypt(fileURL: file, namespace: "secrets", masterKey: old.masterKey)
                    .rotateMasterKey(to: new.masterKey)
                #expect(Self.opens(file, new.masterKey, context + ", after the rerun"))
                #expect(!Self.opens(file, old.masterKey, context + ", old key after the rerun"))
                #expect(
                    try SQLiteCryptRotationTests.rows(file).filter { $0.key.hasPrefix("beside/") } == besideRows,
                    "\(context)"
                )
                old = new
            }
            #expect(killedInside > iterations / 2, "only \(killedInside) kills landed before the commit")
        }
    }
}
