import Benchmark
import BenchmarkSupport
import ForgeFileStore
import Foundation

// File stores: ours beside temp+rename / read and beside Data(.atomic) and FileManager. Names are `group:variant`;
// scripts/benchmarks divides each variant by the group's `limit`.

let benchmarks: @Sendable () -> Void = {
    let folder = Scratch.folder("files")
    let store = DiskFileStore(directory: .custom(folder), namespace: "bench")
    // A 1 KiB load takes microseconds: it runs 1,000 times per sample, so the harness's own cost per sample
    // (for an async benchmark, starting a task) is spread over them, for ours and the limit alike.
    let sizes:
        [(label: String, data: Data, configuration: Benchmark.Configuration, loadScaling: BenchmarkScalingFactor)] = [
            ("1KiB", Data(repeating: 0xA5, count: 1 << 10), .forge(), .kilo),
            ("64MiB", Data(repeating: 0x5A, count: 64 << 20), .forge(maxIterations: 30, seconds: 3), .one),
        ]

    for (label, data, configuration, loadScaling) in sizes {
        let name = "doc-\(label).bin"
        let limitPath = folder.path + "/limit-\(name)"
        let peerURL = folder.appendingPathComponent("peer-\(name)")

        Benchmark("file.save.\(label):ours", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try await store.save(data, to: name) }
        }
        Benchmark("file.save.\(label):limit", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Limit.writeAtomically(data, toPath: limitPath)) }
        }
        Benchmark("file.save.\(label):Data.atomic", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try data.write(to: peerURL, options: .atomic) }
        }

        // Each benchmark may run in a process of its own: a load writes its file first, outside the measurement.
        var load = configuration
        load.scalingFactor = loadScaling
        load.setup = {
            try await store.save(data, to: name)
            Limit.writeAtomically(data, toPath: limitPath)
            try data.write(to: peerURL, options: .atomic)
        }
        Benchmark("file.load.\(label):ours", configuration: load) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try await store.load(name)) }
        }
        Benchmark("file.load.\(label):limit", configuration: load) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Limit.readFile(atPath: limitPath)) }
        }
        // The same read behind an `await`, as FileStoring's async API is called: what the call itself costs.
        Benchmark("file.load.\(label):limit awaited", configuration: load) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(await Limit.readFileAwaited(atPath: limitPath)) }
        }
        Benchmark("file.load.\(label):FileManager", configuration: load) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(FileManager.default.contents(atPath: peerURL.path)) }
        }
    }

    registerMainActorBenchmarks(store: store, folder: folder)

    // MARK: 1 KiB files in sub-folders, one and four folders deep.
    // The limit opens the same path from the same base folder: the store refuses links on the way in the same one
    // `open` (`openat2` on Linux), so it pays only for opening its own folder first.

    for (label, path) in [("depth1", "avatars/current.bin"), ("depth4", "nested/a/b/c/f.bin")] {
        let data = Data(repeating: 0xA5, count: 1 << 10)
        let limitPath = folder.path + "/limit/" + path
        let peerURL = folder.appendingPathComponent("peer/" + path)
        var nested = Benchmark.Configuration.forge(scaling: .kilo)
        nested.setup = {
            try await store.save(data, to: path)
            for url in [URL(fileURLWithPath: limitPath), peerURL] {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
            }
            Limit.writeAtomically(data, toPath: limitPath)
            try data.write(to: peerURL, options: .atomic)
        }
        Benchmark("file.load.1KiB.\(label):ours", configuration: nested) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try await store.load(path)) }
        }
        Benchmark("file.load.1KiB.\(label):limit", configuration: nested) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Limit.readFile(atPath: limitPath)) }
        }
        Benchmark("file.load.1KiB.\(label):Data.contentsOf", configuration: nested) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try Data(contentsOf: peerURL)) }
        }
        var save = nested
        save.scalingFactor = .one
        Benchmark("file.save.1KiB.\(label):ours", configuration: save) { benchmark in
            for _ in benchmark.scaledIterations { try await store.save(data, to: path) }
        }
        Benchmark("file.save.1KiB.\(label):limit", configuration: save) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Limit.writeAtomically(data, toPath: limitPath)) }
        }
        Benchmark("file.save.1KiB.\(label):Data.atomic", configuration: save) { benchmark in
            for _ in benchmark.scaledIterations { try data.write(to: peerURL, options: .atomic) }
        }
    }

    // MARK: A flushed 1 KiB save: it survives a power loss.
    // Beside the flushed limit (the file flushed, renamed, then its folder flushed). `Data.write(options: .atomic)`
    // does not flush, so it is no peer at this durability and is left out.

    let flushedFolder = Scratch.folder("files-flushed")
    let flushedStore = DiskFileStore(directory: .custom(flushedFolder), namespace: "bench", durability: .flushed)
    let kiB = Data(repeating: 0xA5, count: 1 << 10)
    let flushedLimitPath = flushedFolder.path + "/limit-doc-1KiB.bin"

    Benchmark("file.save.1KiB.flushed:ours", configuration: .forge()) { benchmark in
        for _ in benchmark.scaledIterations { try await flushedStore.save(kiB, to: "doc-1KiB.bin") }
    }
    Benchmark("file.save.1KiB.flushed:limit", configuration: .forge()) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Limit.writeFlushed(kiB, toPath: flushedLimitPath)) }
    }

    // MARK: A folder of 10,000 files.
    // A listing reads a folder of names as users have them (`ListedFiles`: one in four not ASCII); the limit is
    // `readdir` of that folder and a sort of the names as Swift strings. *ours new store* makes the store value
    // for each call, as code that keeps no store around does.

    let many = Benchmark.Configuration.forge(maxIterations: 200, seconds: 2)
    // Each benchmark may run in a process of its own: the folder is filled first, outside the measurement.
    var listing = many
    listing.setup = { _ = ListedFiles.store }

    Benchmark("file.list.10000:ours", configuration: listing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await ListedFiles.store.list(in: "")) }
    }
    Benchmark("file.list.10000:ours new store", configuration: listing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await ListedFiles.newStore().list(in: "")) }
    }
    Benchmark("file.list.10000:limit", configuration: listing) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Limit.listFolder(atPath: ListedFiles.path)) }
    }
    Benchmark("file.list.10000:FileManager", configuration: listing) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try FileManager.default.contentsOfDirectory(atPath: ListedFiles.path).sorted())
        }
    }
    Benchmark("file.totalSize.10000:ours", configuration: many) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await ManyFiles.store.totalSize()) }
    }
    Benchmark("file.totalSize.10000:limit", configuration: many) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Limit.totalSize(atPath: ManyFiles.path)) }
    }
    Benchmark("file.totalSize.10000:FileManager", configuration: many) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ManyFiles.fileManagerTotalSize()) }
    }
}

/// A store whose folder holds 10,000 files of 100 bytes named as a user's files are, made on first use.
///
/// Most names are ASCII (`photo-01234.jpg`); one in four is not (`café-01236.jpg`, `写真-01240.jpg`), in NFC as
/// programs write them. Such names are longer than 15 bytes, so they are heap strings, and they sort by Unicode
/// rules: both cost the limit too, but only a listing that checks or remakes each name's NFC spelling pays more.
enum ListedFiles {
    static let store: DiskFileStore = {
        let store = newStore()
        try? FileManager.default.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
        let data = Data(repeating: 0x42, count: 100)
        for index in 0..<10_000 {
            Limit.writeAtomically(data, toPath: store.folderURL.path + "/" + name(index))
        }
        return store
    }()

    static var path: String { store.folderURL.path }

    /// The base folder of the store, emptied on first use.
    private static let directory = Scratch.folder("listed")

    /// A store value of the listed folder, made anew.
    static func newStore() -> DiskFileStore {
        DiskFileStore(directory: .custom(directory), namespace: "listed")
    }

    /// The name of the file `index`.
    static func name(_ index: Int) -> String {
        let stems = ["café", "résumé", "Überweisung", "αρχείο", "写真", "naïve"]
        let digits = String(index)
        let number = String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        return index % 4 == 0 ? "\(stems[index / 4 % stems.count])-\(number).jpg" : "photo-\(number).jpg"
    }
}

/// A store whose folder holds 10,000 files of 100 bytes, made on first use.
enum ManyFiles {
    static let store: DiskFileStore = {
        let store = DiskFileStore(directory: .custom(Scratch.folder("many")), namespace: "many")
        try? FileManager.default.createDirectory(at: store.folderURL, withIntermediateDirectories: true)
        let data = Data(repeating: 0x42, count: 100)
        for index in 0..<10_000 {
            Limit.writeAtomically(data, toPath: store.folderURL.path + "/file-\(index).bin")
        }
        return store
    }()

    static var path: String { store.folderURL.path }

    /// The sizes of every regular file under the folder, through a FileManager enumerator.
    static func fileManagerTotalSize() -> Int {
        let keys: [URLResourceKey] = [.fileSizeKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: store.folderURL, includingPropertiesForKeys: keys)
        else { return 0 }
        var total = 0
        for case let url as URL in enumerator {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            total += values.fileSize ?? 0
        }
        return total
    }
}
