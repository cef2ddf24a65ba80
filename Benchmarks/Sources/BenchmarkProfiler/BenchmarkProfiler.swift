import BenchmarkSupport
import Crypto
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import Foundation

// Runs one operation many times, without the harness: timed by scripts/benchmarks-profiler, and counted by
// scripts/benchmarks-instructions, which runs it under valgrind's callgrind (instructions do not depend on the
// machine's load). For a profile of one operation, after that script has made its debug-free copies:
//
//     LD_LIBRARY_PATH=.build/callgrind valgrind --tool=callgrind --callgrind-out-file=ours.out \
//         .build/callgrind/BenchmarkProfiler kv.disk.get:ours 10000
//     callgrind_annotate ours.out | head -40
//
// The operations are the benchmarks' (`group:variant`, the same names), in one process without the harness.

@main
struct BenchmarkProfiler {
    /// Synchronous on purpose: an `async` main parks the main thread in libdispatch's `sigsuspend`, where
    /// valgrind 3.19 crashes; a detached task awaited through a semaphore runs the same code under valgrind.
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print(
                "usage: BenchmarkProfiler OPERATION [COUNT]\noperations: \(operations.keys.sorted().joined(separator: " "))"
            )
            return
        }
        guard let operation = operations[arguments[1]] else {
            print("unknown operation \(arguments[1])")
            exit(1)
        }
        guard let count = arguments.count > 2 ? Int(arguments[2]) : 10_000, count > 0 else {
            print("COUNT must be a positive whole number, not \(arguments[2])")
            exit(1)
        }
        let finished = DispatchSemaphore(value: 0)
        let outcome = LockedOutcome()
        Task.detached {
            do { try await operation(count) } catch { outcome.failure = error }
            finished.signal()
        }
        finished.wait()
        if let failure = outcome.failure { throw failure }
    }

    static let operations: [String: @Sendable (Int) async throws -> Void] = {
        let key = KVKey<Profile>("profile")
        let folder = Scratch.folder("profiler")
        let memory = InMemoryKVStore()
        let locked = LockedDictionary<Profile>()
        let disk = DiskKVStore(directory: .custom(folder), namespace: "kv")
        let limitPath = folder.path + "/limit.json"
        let files = DiskFileStore(directory: .custom(folder), namespace: "files")
        let kiB = Data(repeating: 0xA5, count: 1 << 10)
        let secret = String(repeating: "s3cr3t-", count: 9)
        let secretKey = CryptKey<String>(key: "api-token")
        let symmetric = SymmetricKey(size: .bits256)
        // A vault that cannot be opened fails the vault operations when they run, instead of measuring nothing.
        let vault = Result {
            try EncryptedFileCrypt(directory: .custom(folder), namespace: "vault", masterKey: .symmetric(symmetric))
        }
        let vaultLimitPath = folder.path + "/limit.secret"
        let associatedData = Data("api-token".utf8)
        return [
            "kv.memory.get:ours": { count in
                try memory.set(key, value: .sample)
                for _ in 0..<count { blackHole(memory.get(key)) }
            },
            "kv.memory.get:limit": { count in
                locked.set("profile", .sample)
                for _ in 0..<count { blackHole(locked.get("profile")) }
            },
            "kv.disk.get:ours": { count in
                try disk.set(key, value: .sample)
                for _ in 0..<count { blackHole(disk.get(key)) }
            },
            "kv.disk.get:limit": { count in
                Limit.writeAtomically(try Codec.encoder.encode(Profile.sample), toPath: limitPath)
                for _ in 0..<count {
                    blackHole(
                        Limit.readFile(atPath: limitPath).flatMap { try? Codec.decoder.decode(Profile.self, from: $0) }
                    )
                }
            },
            "kv.disk.set:ours": { count in
                for _ in 0..<count { try disk.set(key, value: .sample) }
            },
            "kv.disk.set:limit": { count in
                for _ in 0..<count {
                    Limit.writeAtomically(try Codec.encoder.encode(Profile.sample), toPath: limitPath)
                }
            },
            "file.save.1KiB:ours": { count in
                for _ in 0..<count { try await files.save(kiB, to: "doc.bin") }
            },
            "file.save.1KiB:limit": { count in
                for _ in 0..<count { Limit.writeAtomically(kiB, toPath: limitPath) }
            },
            "file.load.1KiB:ours": { count in
                try await files.save(kiB, to: "doc.bin")
                for _ in 0..<count { blackHole(try await files.load("doc.bin")) }
            },
            "file.load.1KiB:limit": { count in
                Limit.writeAtomically(kiB, toPath: limitPath)
                for _ in 0..<count { blackHole(Limit.readFile(atPath: limitPath)) }
            },
            "file.load.1KiB:limit awaited": { count in
                Limit.writeAtomically(kiB, toPath: limitPath)
                for _ in 0..<count { blackHole(await Limit.readFileAwaited(atPath: limitPath)) }
            },
            "vault.get:ours": { count in
                let store = try vault.get()
                try store.set(secret, for: secretKey)
                for _ in 0..<count { blackHole(try store.get(secretKey)) }
            },
            "vault.get:limit": { count in
                let sealed = try AES.GCM.seal(Data(secret.utf8), using: symmetric, authenticating: associatedData)
                Limit.writeFlushed(sealed.combined ?? Data(), toPath: vaultLimitPath)
                for _ in 0..<count {
                    guard let file = Limit.readFile(atPath: vaultLimitPath) else { continue }
                    let box = try AES.GCM.SealedBox(combined: file)
                    let plaintext = try AES.GCM.open(box, using: symmetric, authenticating: associatedData)
                    blackHole(String(decoding: plaintext, as: UTF8.self))
                }
            },
            "vault.set:ours": { count in
                let store = try vault.get()
                for _ in 0..<count { try store.set(secret, for: secretKey) }
            },
            "vault.set:limit": { count in
                for _ in 0..<count {
                    let sealed = try AES.GCM.seal(Data(secret.utf8), using: symmetric, authenticating: associatedData)
                    Limit.writeFlushed(sealed.combined ?? Data(), toPath: vaultLimitPath)
                }
            },
        ]
    }()
}
/// The error of the operation run on a detached task, read back on the main thread after it signals.
final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var failure: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// Keeps a value alive so the optimiser cannot remove the work that made it (the profiler has no harness).
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
