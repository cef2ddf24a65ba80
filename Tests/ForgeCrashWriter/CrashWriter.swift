import ForgeCore
import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeTestSupport
import Foundation

/// The child process of the crash tests: writes every ``CrashPlan`` slot, round after round, until it is
/// killed.
///
/// Usage: `ForgeCrashWriter <folder> <first-generation>`. It stops by itself after 20 seconds, so a crashed
/// test never leaves it running. `ForgeCrashWriter <folder> open` only opens every store, as an app's next
/// start would (which removes what crashed writers left), and exits. Exit status 2 means bad arguments, 3
/// a failed store call. `ForgeCrashWriter defaults …` makes one `UserDefaultsKVStore` call instead (see
/// ``DefaultsCommand``), `ForgeCrashWriter kv …` writes to a `DiskKVStore` (see ``KVCommand``), `ForgeCrashWriter files …` to a
/// `DiskFileStore` (see ``FilesCommand``), and `ForgeCrashWriter rotate …` changes a vault's master key (see
/// ``RotateCommand``).
@main
enum CrashWriter {
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.count > 1, arguments[1] == "kv" {
            do {
                guard try KVCommand.run(Array(arguments.dropFirst(2))) else { exit(2) }
            } catch {
                FileHandle.standardError.write(Data("ForgeCrashWriter: \(error)\n".utf8))
                exit(3)
            }
            return
        }
        if arguments.count > 1, arguments[1] == "files" {
            do {
                guard try await FilesCommand.run(Array(arguments.dropFirst(2))) else { exit(2) }
            } catch {
                FileHandle.standardError.write(Data("ForgeCrashWriter: \(error)\n".utf8))
                exit(3)
            }
            return
        }
        if arguments.count > 1, arguments[1] == "rotate" {
            do {
                guard try RotateCommand.run(Array(arguments.dropFirst(2))) else { exit(2) }
            } catch {
                FileHandle.standardError.write(Data("ForgeCrashWriter: \(error)\n".utf8))
                exit(3)
            }
            return
        }
        if arguments.count > 1, arguments[1] == "defaults" {
            do {
                guard try DefaultsCommand.run(Array(arguments.dropFirst(2))) else { exit(2) }
            } catch {
                FileHandle.standardError.write(Data("ForgeCrashWriter: \(error)\n".utf8))
                exit(3)
            }
            return
        }
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: ForgeCrashWriter <folder> <first-generation>|open\n".utf8))
            exit(2)
        }
        let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
        do {
            if arguments[2] == "open" {
                _ = try Stores(in: folder)
                // The stores sweep leftovers in the background; a start that runs long enough lets them finish.
                StoreFolder.waitForLeftoverSweeps()
            } else if let firstGeneration = Int(arguments[2]) {
                try await run(in: folder, from: firstGeneration)
            } else {
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("ForgeCrashWriter: \(error)\n".utf8))
            exit(3)
        }
    }

    private static func run(in folder: URL, from firstGeneration: Int) async throws {
        let stores = try Stores(in: folder)
        let keyValues = stores.keyValues
        let files = stores.files
        let vault = stores.vault
        let scratchValues = stores.scratchValues
        let scratchFiles = stores.scratchFiles

        let deadline = Date().addingTimeInterval(20)
        var generation = firstGeneration
        while Date() < deadline {
            for slot in CrashPlan.slots {
                let value = CrashPlan.value(for: slot, generation: generation)
                switch slot.store {
                case .keyValue: try keyValues.set(KVKey<String>(slot.name), value: value)
                case .files: try await files.save(Data(value.utf8), to: slot.name)
                case .vault: try vault.set(value, for: CryptKey<String>(key: slot.name))
                }
            }
            for index in 0..<3 {
                try scratchValues.set(KVKey<Int>("scratch.\(index)"), value: generation)
                try await scratchFiles.save(Data(count: 20_000), to: "deep/folder/\(index)/file.bin")
            }
            try await scratchFiles.delete("deep/folder/0/file.bin")
            try scratchValues.removeAll()
            try await scratchFiles.deleteAll()
            generation += 1
        }
    }
}
