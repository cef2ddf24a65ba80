import ForgeCore
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeTestSupport
import Foundation
import Testing

/// The parent's side of the crash tests: reopens the stores after a kill and checks what they hold.
struct CrashHarness {
    let folder: URL
    /// The generation each ``CrashPlan/slots`` entry held at the last check; nil when never written.
    private(set) var generations: [Int?] = Array(repeating: nil, count: CrashPlan.slots.count)

    init(folder: URL) {
        self.folder = folder
    }

    /// The `ForgeCrashWriter` executable: `FORGE_CRASH_WRITER`, or the one SwiftPM built beside the tests.
    static func writerURL() -> URL? {
        if let path = ProcessInfo.processInfo.environment["FORGE_CRASH_WRITER"] {
            return URL(fileURLWithPath: path)
        }
        var folders: [URL] = Bundle.allBundles
            .filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("ForgeCrashWriter") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The names of the temporary files and folders anywhere in the writer's folder.
    func temporaryNames() -> [String] {
        let names = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return names.filter { $0.contains(TemporaryName.marker) }
    }

    /// Opens every store after the next start of the app (see ``CrashSafetyTests``), and checks that no
    /// temporary file is left, that every slot holds a complete value no older than before, that what the killed writer
    /// wrote is a prefix of its rounds, and that the stores still work.
    mutating func reopenAndCheck(after context: String, from firstGeneration: Int) async throws {
        let directory = StorageDirectory.custom(folder)
        let keyValues = DiskKVStore(directory: directory, namespace: CrashPlan.kvNamespace)
        let files = DiskFileStore(directory: directory, namespace: CrashPlan.filesNamespace)
        let vault = try EncryptedFileCrypt(
            directory: directory,
            namespace: CrashPlan.vaultNamespace,
            masterKey: .keyFile(folder.appendingPathComponent(CrashPlan.keyFileName))
        )
        let scratchValues = DiskKVStore(directory: directory, namespace: CrashPlan.kvScratchNamespace)
        let scratchFiles = DiskFileStore(directory: directory, namespace: CrashPlan.filesScratchNamespace)
        #expect(temporaryNames() == [], "\(context): temporary files remain after the next start")

        var current: [Int?] = []
        for slot in CrashPlan.slots {
            let value: String?
            switch slot.store {
            case .keyValue:
                value = keyValues.get(KVKey<String>(slot.name))
                #expect((value != nil) == keyValues.contains(KVKey<String>(slot.name)), "\(context): \(slot)")
            case .files:
                value = files.exists(slot.name) ? String(decoding: try await files.load(slot.name), as: UTF8.self) : nil
            case .vault:
                value = try vault.get(CryptKey<String>(key: slot.name))
            }
            let generation = value.flatMap { CrashPlan.generation(of: $0, for: slot) }
            #expect(value == nil || generation != nil, "\(context): \(slot) holds a torn or foreign value")
            current.append(generation)
        }
        checkProgress(current, from: firstGeneration, context: context)
        generations = current

        try keyValues.set(KVKey<Int>("probe"), value: 1)
        #expect(keyValues.get(KVKey<Int>("probe")) == 1)
        try keyValues.remove(KVKey<Int>("probe"))
        try await files.save(Data("probe".utf8), to: "probe/file.txt")
        #expect(try await files.load("probe/file.txt") == Data("probe".utf8))
        try await files.delete("probe/file.txt")
        try vault.set("probe", for: CryptKey<String>(key: "probe"))
        #expect(try vault.get(CryptKey<String>(key: "probe")) == "probe")
        try vault.delete(CryptKey<String>(key: "probe"))
        try scratchValues.set(KVKey<Int>("probe"), value: 1)
        try await scratchFiles.save(Data(), to: "probe")
    }

    /// Checks that the slots the killed writer changed are a prefix of the plan, each holding one of its
    /// generations (the round it finished or the one it was in), and the others are as they were.
    private func checkProgress(_ current: [Int?], from firstGeneration: Int, context: String) {
        var changed = 0
        for (index, slot) in CrashPlan.slots.enumerated() {
            let before = generations[index]
            let now = current[index]
            if let now, now >= firstGeneration {
                #expect(changed == index, "\(context): \(slot) was written, but an earlier slot was not")
                changed += 1
            } else {
                #expect(now == before, "\(context): \(slot) went from generation \(before ?? -1) to \(now ?? -1)")
            }
        }
        let written = current.prefix(changed).compactMap { $0 }
        if let newest = written.first, let oldest = written.last {
            #expect(newest - oldest <= 1, "\(context): the written slots span generations \(oldest)...\(newest)")
            #expect(written == written.sorted(by: >), "\(context): generations \(written) are out of order")
        }
    }
}
