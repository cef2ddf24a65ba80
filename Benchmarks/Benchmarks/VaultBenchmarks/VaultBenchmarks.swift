import Benchmark
import BenchmarkSupport
import Crypto
import ForgeCrypt
import Foundation

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
