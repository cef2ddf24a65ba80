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
}
