#if DEBUG
import ForgeCore
import Foundation

@testable import ForgeKVStore

/// `UserDefaultsKVStore`'s flush on Linux: the calls around `UserDefaults.synchronize()` (the lock file, the property
/// list's status and modification time, its reading back), which the write behind runs too.
///
/// `synchronize()` writes the property list with swift-corelibs-foundation's own calls, which do not pass through the
/// seam: the sweep fails the store's calls around it, not Foundation's write. The flushes behind are held back (their
/// queue is suspended), so that each run's calls are the flush's alone and come in the same order.
enum DefaultsOperations {
    static let target = KVKey<String>("theme")
    static let others = [KVKey<String>("language"), KVKey<String>("accent")]
    static let next = KVKey<String>("next")

    /// The folder every property list of the sweep is kept in: `XDG_CONFIG_HOME`, which swift-corelibs-foundation
    /// reads once, when the process starts (see ``runInOwnConfigurationFolder()``).
    static var folder: URL {
        URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? "/nonexistent",
            isDirectory: true
        )
    }

    /// Runs this executable again in a new folder for the property lists, and exits with its status.
    ///
    /// The folder is `XDG_CONFIG_HOME`, which the children inherit; it is removed once the run ends. In the process
    /// that already runs so, this returns at once, having held the flushes behind back.
    static func runInOwnConfigurationFolder() {
        let environment = ProcessInfo.processInfo.environment
        if environment["XDG_CONFIG_HOME"]?.contains("forge-sweep-defaults-") == true {
            DefaultsSynchronizer.queue.suspend()
            return
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("forge-sweep-defaults-\(UUID().uuidString)", isDirectory: true)
        let process = Process()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = Array(CommandLine.arguments.dropFirst())
            process.environment = environment.merging(["XDG_CONFIG_HOME": folder.path]) { $1 }
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("ForgeFaultSweep: could not start in its own folder: \(error)\n".utf8))
            exit(3)
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
        exit(process.terminationReason == .exit ? process.terminationStatus : 3)
    }

    static var all: [SweptOperation] {
        [
            SweptOperation(
                name: "defaults.flush",
                subject: nil,
                watchedFolder: { _ in folder },
                seed: { runFolder in
                    let store = UserDefaultsKVStore(suiteName: domain(of: runFolder))
                    try store.set(target, value: "light")
                    for key in others { try store.set(key, value: "value of \(key.key)") }
                    try store.flush()
                },
                open: { runFolder in
                    let domain = domain(of: runFolder)
                    let store = UserDefaultsKVStore(suiteName: domain)
                    _ = try store.keys()
                    // The change the flush writes.
                    try store.set(target, value: "dark, all day long")
                    return SweptOperation.OpenedStore(
                        run: { try store.flush() },
                        contents: { try contents(of: store) },
                        next: {
                            try store.set(next, value: "after")
                            try store.flush()
                            guard try propertyList(of: domain)[next.key] == "\"after\"" else {
                                throw SweepViolation("the next flush did not write the next value")
                            }
                        }
                    )
                },
                read: { runFolder in try propertyList(of: domain(of: runFolder)) }
            )
        ]
    }

    /// The suite of a run: one per run folder.
    private static func domain(of runFolder: URL) -> String {
        "forge.sweep." + runFolder.lastPathComponent
    }

    /// What the store shows: its keys and their values' JSON.
    private static func contents(of store: UserDefaultsKVStore) throws -> [String: String] {
        var contents: [String: String] = [:]
        for key in try store.keys() {
            contents[key] = try store.value(for: KVKey<String>(key)).map { "\"\($0)\"" } ?? "missing"
        }
        return contents
    }

    /// What the domain's property list holds, as another process reads it: each string value, quoted.
    private static func propertyList(of domain: String) throws -> [String: String] {
        let path = folder.appendingPathComponent("\(domain).plist")
        guard let data = FileManager.default.contents(atPath: path.path) else { return [:] }
        guard let list = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw SweepViolation("the property list is not a dictionary")
        }
        return list.mapValues { value in (value as? String).map { "\"\($0)\"" } ?? "\(value)" }
    }
}
#endif
