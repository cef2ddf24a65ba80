import Benchmark
import BenchmarkSupport
import Crypto
import ForgeCrypt
import Foundation
import Synchronization

// The encrypted vault beside its limit: the same file I/O (temp+fsync+rename+fsync of the folder for a write)
// and AES-GCM through swift-crypto directly. Names are `group:variant`.

let benchmarks: @Sendable () -> Void = {
    let folder = Scratch.folder("vault")
    let masterKey = SymmetricKey(size: .bits256)
    let vault = try? EncryptedFileCrypt(
        directory: .custom(folder),
        namespace: "vault",
        masterKey: .symmetric(masterKey)
    )
    let key = CryptKey<String>(key: "api-token")
    let secret = String(repeating: "s3cr3t-", count: 9)
    try? vault?.set(secret, for: key)

    let limitKey = SymmetricKey(size: .bits256)
    let limitPath = folder.path + "/limit.secret"
    let associatedData = Data("api-token".utf8)
    func sealed() throws -> Data {
        try AES.GCM.seal(Data(secret.utf8), using: limitKey, authenticating: associatedData).combined ?? Data()
    }
    Limit.writeFlushed((try? sealed()) ?? Data(), toPath: limitPath)

    let configuration = Benchmark.Configuration.forge(maxIterations: 2_000)
    // A read takes microseconds: it runs 1,000 times per sample, so the harness's cost per sample is spread.
    let read = Benchmark.Configuration.forge(scaling: .kilo, maxIterations: 2_000)

    Benchmark("vault.get:ours", configuration: read) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try vault?.get(key)) }
    }
    Benchmark("vault.get:limit", configuration: read) { benchmark in
        for _ in benchmark.scaledIterations {
            guard let file = Limit.readFile(atPath: limitPath) else { continue }
            let box = try AES.GCM.SealedBox(combined: file)
            blackHole(
                String(decoding: try AES.GCM.open(box, using: limitKey, authenticating: associatedData), as: UTF8.self)
            )
        }
    }
    Benchmark("vault.set:ours", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { try vault?.set(secret, for: key) }
    }
    Benchmark("vault.set:limit", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Limit.writeFlushed(try sealed(), toPath: limitPath))
        }
    }

    // MARK: The first open of a vault of 100,000 items in a process, then a read, beside a later open and read.
    // The first starts the sweep of crashed writers' leftovers, which must stay off this path.

    let open = Benchmark.Configuration.forge(maxIterations: 100)
    Benchmark("vault.open.100000:ours", configuration: open) { benchmark in
        let large = LargeVault.shared
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let opened = try EncryptedFileCrypt(
                directory: .custom(large.folder.freshAlias()),
                namespace: "vault",
                masterKey: .symmetric(LargeVault.masterKey)
            )
            blackHole(try opened.get(LargeVault.key))
        }
        benchmark.stopMeasurement()
    }
    Benchmark("vault.open.100000:limit", configuration: open) { benchmark in
        let base = LargeVault.shared.folder.base
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let opened = try EncryptedFileCrypt(
                directory: .custom(base),
                namespace: "vault",
                masterKey: .symmetric(LargeVault.masterKey)
            )
            blackHole(try opened.get(LargeVault.key))
        }
        benchmark.stopMeasurement()
    }

    // MARK: A change of master key of a vault of 10,000 items, to a new symmetric key, beside the limit: each item read,
    // opened and sealed under the new key with swift-crypto, written beside the old one without a flush, the new
    // items flushed one by one and the folder once, the old ones removed and the folder flushed, and three small
    // flushed writes (the rotation's start, switch and end). Each iteration is a whole rotation, to the other key.

    let rotation = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(60),
        maxIterations: 10
    )
    Benchmark("vault.rotate.10000:ours", configuration: rotation) { benchmark in
        let vault = RotatedVault.shared
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try vault.rotate() }
        benchmark.stopMeasurement()
    }
    Benchmark("vault.rotate.10000:limit", configuration: rotation) { benchmark in
        let limit = RotationLimit.shared
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { try limit.rotate() }
        benchmark.stopMeasurement()
    }
}

/// A vault of 10,000 secrets, made when its benchmark first uses it (outside its measurement), moved to the other of
/// two keys by each ``rotate()``.
private final class RotatedVault: Sendable {
    static let count = 10_000
    static let shared = RotatedVault()

    private let keys = [SymmetricKey(size: .bits256), SymmetricKey(size: .bits256)]
    /// The store, opened with the key the vault has now, and that key's index.
    private let current: Mutex<(store: EncryptedFileCrypt?, key: Int)>

    private init() {
        let store = try? EncryptedFileCrypt(
            directory: .custom(Scratch.folder("vault-rotation")),
            namespace: "vault",
            masterKey: .symmetric(keys[0])
        )
        let secret = String(repeating: "s3cr3t-", count: 9)
        for index in 0..<Self.count { try? store?.set(secret, for: CryptKey<String>(key: "api-token-\(index)")) }
        current = Mutex((store, 0))
    }

    /// Moves the vault to the other key.
    func rotate() throws {
        try current.withLock { current in
            let next = 1 - current.key
            current.store = try current.store?.rotateMasterKey(to: .symmetric(keys[next]))
            current.key = next
        }
    }
}

/// The limit of a rotation: 10,000 sealed files, each read, opened, sealed under the other key and written under the
/// other of two names, with swift-crypto and POSIX calls, and no check of anything.
private final class RotationLimit: Sendable {
    static let shared = RotationLimit()

    private let folder = Scratch.folder("vault-rotation-limit").path
    private let keys = [SymmetricKey(size: .bits256), SymmetricKey(size: .bits256)]
    /// The key the files are sealed under now.
    private let current = Mutex(0)

    private init() {
        let secret = Data(String(repeating: "s3cr3t-", count: 9).utf8)
        for index in 0..<RotatedVault.count {
            let sealed = try? AES.GCM.seal(secret, using: keys[0], authenticating: Data("item-\(index)".utf8))
            Limit.writeFlushed(sealed?.combined ?? Data(), toPath: path(index, 0))
        }
    }

    private func path(_ index: Int, _ key: Int) -> String {
        "\(folder)/item-\(index).\(key)"
    }

    /// Moves every file to the other key.
    func rotate() throws {
        try current.withLock { key in
            let next = 1 - key
            Limit.writeFlushed(Data("start".utf8), toPath: folder + "/header")
            for index in 0..<RotatedVault.count {
                guard let file = Limit.readFile(atPath: path(index, key)) else { continue }
                let associatedData = Data("item-\(index)".utf8)
                let secret = try AES.GCM.open(
                    AES.GCM.SealedBox(combined: file),
                    using: keys[key],
                    authenticating: associatedData
                )
                let sealed = try AES.GCM.seal(secret, using: keys[next], authenticating: associatedData)
                Limit.writeAtomically(sealed.combined ?? Data(), toPath: path(index, next))
            }
            for index in 0..<RotatedVault.count { Self.flush(path(index, next), flags: O_RDONLY) }
            Self.flush(folder, flags: O_RDONLY | O_DIRECTORY)
            Limit.writeFlushed(Data("switch".utf8), toPath: folder + "/header")
            for index in 0..<RotatedVault.count { unlink(path(index, key)) }
            Self.flush(folder, flags: O_RDONLY | O_DIRECTORY)
            Limit.writeFlushed(Data("end".utf8), toPath: folder + "/header")
            key = next
        }
    }

    /// Opens `path`, flushes it to the device and closes it.
    private static func flush(_ path: String, flags: Int32) {
        let fd = open(path, flags | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// A vault folder holding 100,000 item files and one secret, made when a benchmark first uses it (outside its
/// measurement); its key is fixed, as each benchmark may run in a process of its own.
private struct LargeVault: Sendable {
    static let masterKey = SymmetricKey(data: Data(repeating: 7, count: 32))
    static let key = CryptKey<String>(key: "api-token")
    static let shared = LargeVault()

    let folder = LargeFolder(
        "vault-100000",
        namespace: "vault",
        count: 100_000,
        aliases: 200,
        file: { "item-\($0)" },
        contents: Data(repeating: 0x5A, count: 100)
    )

    private init() {
        let vault = try? EncryptedFileCrypt(
            directory: .custom(folder.base),
            namespace: "vault",
            masterKey: .symmetric(Self.masterKey)
        )
        try? vault?.set("secret", for: Self.key)
        // Opened once by its own path, so the limit's opens are later opens.
        blackHole(vault)
    }
}
