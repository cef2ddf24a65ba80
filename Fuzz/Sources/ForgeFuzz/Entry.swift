import Foundation

/// libFuzzer's driver, which calls `LLVMFuzzerTestOneInput` with each input it makes.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target this run fuzzes, which `FORGE_FUZZ_TARGET` names (see ``FuzzTarget``).
let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FORGE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data("FORGE_FUZZ_TARGET must be one of \(FuzzTarget.allCases.map(\.rawValue))\n".utf8)
        )
        exit(2)
    }
    return target
}()

/// One input, to the target: a typed error is a pass; a trap, any other error, a hang or an allocation past libFuzzer's
/// limit is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    target.run(data)
    return 0
}

/// The executable's entry point (SwiftPM names it after the module): hands over to libFuzzer's driver, which reads
/// its own options (`-runs`, `-max_total_time`, corpus folders).
@_cdecl("ForgeFuzz_main")
func forgeFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let folder = ProcessInfo.processInfo.environment["FORGE_FUZZ_WRITE_CORPUS"] {
        do {
            try SeedCorpus.write(to: URL(fileURLWithPath: folder, isDirectory: true))
            return 0
        } catch {
            FileHandle.standardError.write(Data("could not write the seed corpus: \(error)\n".utf8))
            return 1
        }
    }
    _ = target
    // The files the targets plant, removed when libFuzzer ends the run (it exits).
    atexit {
        try? FileManager.default.removeItem(at: KeyValueFile.folder)
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: SQLiteRowFuzzing.file.path + suffix)
        }
    }
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzzOneInput)
}
