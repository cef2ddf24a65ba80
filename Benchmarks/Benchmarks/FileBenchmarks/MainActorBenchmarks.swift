import Benchmark
import BenchmarkSupport
import ForgeFileStore
import Foundation

// File stores called from the main actor, as app code calls them, beside the same system calls made there. The
// benchmarks above call from a task, as a server does; an `await` from the main actor pays for every switch of threads
// the call makes, which a task does not see.

/// Registers the `file.*.mainActor` groups: a 1 KiB load and save, top-level and four folders deep, through
/// `any FileStoring` from the main actor, and the limit's `open`+`read` (or temporary file and rename) made there.
func registerMainActorBenchmarks(store: DiskFileStore, folder: URL) {
    let data = Data(repeating: 0xA5, count: 1 << 10)
    for (label, path) in [("top", "main-actor.bin"), ("depth4", "main-actor/a/b/c/f.bin")] {
        let limitPath = folder.path + "/limit-main-actor/" + path
        var configuration = Benchmark.Configuration.forge(scaling: .kilo)
        configuration.setup = {
            try await store.save(data, to: path)
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: limitPath).deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            Limit.writeAtomically(data, toPath: limitPath)
        }
        Benchmark("file.load.1KiB.\(label).mainActor:ours", configuration: configuration) { benchmark in
            try await OnMainActor.load(path, from: store, times: benchmark.scaledIterations.count)
        }
        Benchmark("file.load.1KiB.\(label).mainActor:limit", configuration: configuration) { benchmark in
            await OnMainActor.readLimit(atPath: limitPath, times: benchmark.scaledIterations.count)
        }
        var save = configuration
        save.scalingFactor = .one
        Benchmark("file.save.1KiB.\(label).mainActor:ours", configuration: save) { benchmark in
            try await OnMainActor.save(data, to: path, in: store, times: benchmark.scaledIterations.count)
        }
        Benchmark("file.save.1KiB.\(label).mainActor:limit", configuration: save) { benchmark in
            await OnMainActor.writeLimit(data, toPath: limitPath, times: benchmark.scaledIterations.count)
        }
    }
}

/// Loops that run on the main actor, calling the store as a view model does: through the protocol, with `await`.
@MainActor
enum OnMainActor {
    static func load(_ path: String, from store: any FileStoring, times: Int) async throws {
        for _ in 0..<times { blackHole(try await store.load(path)) }
    }

    static func save(_ data: Data, to path: String, in store: any FileStoring, times: Int) async throws {
        for _ in 0..<times { try await store.save(data, to: path) }
    }

    static func readLimit(atPath path: String, times: Int) {
        for _ in 0..<times { blackHole(Limit.readFile(atPath: path)) }
    }

    static func writeLimit(_ data: Data, toPath path: String, times: Int) {
        for _ in 0..<times { blackHole(Limit.writeAtomically(data, toPath: path)) }
    }
}
