import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension ReliabilitySuites {
    /// A vault whose master key is changed by a `ForgeCrashWriter rotate` child that dies part-way.
    ///
    /// The child dies after each step in turn (its own `_exit`), and is SIGKILLed at moments that change each time.
    /// After each death every secret opens with the old key or the new one, and running the rotation again finishes
    /// it; a store of either key, and another rotation, then behave as `EncryptedFileCrypt` says.
    ///
    /// `FORGE_CRASH_ITERATIONS` sets the number of kills (default 30).
    @Suite("Vault rotation crashes")
    struct VaultRotationCrashTests {
        static let namespace = "secrets"
        /// The secrets of every vault: 12 items, so a rotation has 27 steps to die after.
        static let secrets = (0..<12).map { (key: "account.name-\($0)", value: "s3cr3t-value-\($0)") }
        static var stepCount: Int { 3 + 2 * secrets.count }

        /// A master key, as the child's arguments name it and as this process opens it.
        struct Key {
            let argument: String
            let masterKey: MasterKey

            /// A new key of the kind numbered `kind` (symmetric, key file, passphrase), named `name`.
            static func make(kind: Int, name: String, in folder: URL) -> Key {
                switch kind {
                case 0:
                    let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
                    return Key(
                        argument: "symmetric:" + bytes.map { String(format: "%02x", $0) }.joined(),
                        masterKey: .symmetric(SymmetricKey(data: bytes))
                    )
                case 1:
                    let url = folder.appendingPathComponent("keys/\(name).key")
                    return Key(argument: "keyfile:" + url.path, masterKey: .keyFile(url))
                default:
                    return Key(argument: "passphrase:words of \(name)", masterKey: .passphrase("words of \(name)"))
                }
            }
        }

        private static func vault(_ folder: URL, _ key: Key) throws -> EncryptedFileCrypt {
            try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: key.masterKey)
        }

        private static func fill(_ folder: URL, _ key: Key) throws {
            let store = try vault(folder, key)
            for secret in secrets { try store.set(secret.value, for: CryptKey<String>(key: secret.key)) }
        }

        /// Whether `store` reads every secret.
        private static func readsEverySecret(_ store: EncryptedFileCrypt) -> Bool {
            secrets.allSatisfy { (try? store.get(CryptKey<String>(key: $0.key))) == $0.value }
                && (try? store.keys()) == secrets.map(\.key).sorted()
        }

        /// Checks that every secret opens with `old` or with `new`, whichever opens the vault, and returns which open.
        private static func expectEverySecretReadable(
            _ folder: URL,
            old: Key,
            new: Key,
            _ context: String
        ) -> (old: Bool, new: Bool) {
            let withOld = try? vault(folder, old)
            let withNew = try? vault(folder, new)
            #expect(withOld != nil || withNew != nil, "\(context): neither key opens the vault")
            if let withOld { #expect(readsEverySecret(withOld), "\(context): the old key misses a secret") }
            if let withNew { #expect(readsEverySecret(withNew), "\(context): the new key misses a secret") }
            return (withOld != nil, withNew != nil)
        }

        /// Checks that the vault settled on `new`: its header records no rotation, only the new key's items are there.
        private static func expectFinished(_ folder: URL, old: Key, new: Key, _ context: String) throws {
            let store = try vault(folder, new)
            #expect(readsEverySecret(store), "\(context): the new key misses a secret after the rerun")
            #expect(try store.itemCount() == secrets.count, "\(context)")
            let items = try FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)
                .filter { $0.hasSuffix(".secret") }
            #expect(items.count == secrets.count, "\(context): \(items.count) item files")
            let header = try Data(contentsOf: store.folderURL.appendingPathComponent("vault.json"))
            #expect(header.range(of: Data("rotation".utf8)) == nil, "\(context): the header records a rotation")
            #expect(throws: CryptStoreError.self, "\(context): the old key still opens") { _ = try vault(folder, old) }
        }

        /// Runs the rotation again, in this process, as a user would after the crash.
        private static func rerun(_ folder: URL, old: Key, new: Key) throws {
            try EncryptedFileCrypt.rotateMasterKey(
                directory: .custom(folder),
                namespace: namespace,
                from: old.masterKey,
                to: new.masterKey
            )
        }

        @Test func aRotationThatDiesAfterAnyStepLeavesEverySecretReadableAndARerunFinishesIt() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            for steps in 1..<Self.stepCount {
                try await withTemporaryFolder { folder in
                    // Symmetric keys and key files in turn, and a passphrase now and then (stretching takes a while).
                    let old = Key.make(kind: steps == 5 ? 2 : steps % 2, name: "old", in: folder)
                    let new = Key.make(kind: steps == 20 ? 2 : (steps + 1) % 2, name: "new", in: folder)
                    try Self.fill(folder, old)
                    let arguments = ["rotate", folder.path, Self.namespace, old.argument, new.argument, String(steps)]
                    let result = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }
                    let context = "dead after \(steps) steps"
                    #expect(result.status == 7, "\(context): \(result.output)")
                    let opens = Self.expectEverySecretReadable(folder, old: old, new: new, context)
                    // Until the switch (step 2 + the items), the old key opens the vault; from the first step, the new.
                    #expect(opens.old == (steps <= 1 + Self.secrets.count), "\(context)")
                    #expect(opens.new, "\(context)")
                    try Self.rerun(folder, old: old, new: new)
                    try Self.expectFinished(folder, old: old, new: new, context)
                }
            }
        }

        @Test func aRotationSIGKILLedAtRandomMomentsLeavesEverySecretReadableAndARerunFinishesIt() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            let iterations = ProcessInfo.processInfo.environment["FORGE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 30
            try await withTemporaryFolder { folder in
                var old = Key.make(kind: 0, name: "key-0", in: folder)
                try Self.fill(folder, old)
                var killedMidway = 0
                for iteration in 0..<iterations {
                    let new = Key.make(
                        kind: iteration % 10 == 9 ? 2 : (iteration + 1) % 2,
                        name: "key-\(iteration + 1)",
                        in: folder
                    )
                    // The kill comes after a number of steps that changes each time, while the next step runs.
                    let stepsBeforeKill = (iteration * 7) % Self.stepCount
                    let arguments = ["rotate", folder.path, Self.namespace, old.argument, new.argument]
                    let (lines, wasKilled) = try await onOwnThread {
                        try Self.runAndKill(writer, arguments, after: stepsBeforeKill)
                    }
                    let context = "kill \(iteration) after \(lines.count) steps"
                    if wasKilled && lines.last != "done" { killedMidway += 1 }
                    _ = Self.expectEverySecretReadable(folder, old: old, new: new, context)
                    try Self.rerun(folder, old: old, new: new)
                    try Self.expectFinished(folder, old: old, new: new, context)
                    old = new
                }
                #expect(killedMidway > iterations / 2, "only \(killedMidway) kills landed during a rotation")
            }
        }

        @Test func aStoreOfTheOldKeyReadsButCannotWriteUntilTheInterruptedRotationEnds() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            try await withTemporaryFolder { folder in
                let old = Key.make(kind: 0, name: "old", in: folder)
                let new = Key.make(kind: 1, name: "new", in: folder)
                try Self.fill(folder, old)
                let arguments = ["rotate", folder.path, Self.namespace, old.argument, new.argument, "5"]
                _ = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }

                let store = try Self.vault(folder, old)
                let path = store.folderURL.path
                #expect(Self.readsEverySecret(store))
                #expect(try store.itemCount() == Self.secrets.count)
                #expect(throws: CryptStoreError.rotationInProgress(path: path)) {
                    try store.set("x", for: CryptKey<String>(key: "new.key"))
                }
                #expect(throws: CryptStoreError.rotationInProgress(path: path)) { try store.deleteAll() }
                // The same rotation, asked again of the old key's store, finishes.
                let rotated = try store.rotateMasterKey(to: new.masterKey)
                #expect(Self.readsEverySecret(rotated))
                #expect(Self.readsEverySecret(store), "the store that finished it goes on with the new key")
                try Self.expectFinished(folder, old: old, new: new, "finished by the old key's store")
            }
        }

        @Test func anotherRotationOfTheOldKeyReplacesOneThatDiedBeforeItsSwitch() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            try await withTemporaryFolder { folder in
                let old = Key.make(kind: 0, name: "old", in: folder)
                let abandoned = Key.make(kind: 0, name: "abandoned", in: folder)
                let new = Key.make(kind: 1, name: "new", in: folder)
                try Self.fill(folder, old)
                let arguments = ["rotate", folder.path, Self.namespace, old.argument, abandoned.argument, "8"]
                _ = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }

                var steps: [MasterKeyRotationStep] = []
                let rotated = try Self.vault(folder, old).rotateMasterKey(to: new.masterKey) { steps.append($0) }
                #expect(steps.first == .began(itemCount: Self.secrets.count))
                #expect(Self.readsEverySecret(rotated))
                try Self.expectFinished(folder, old: old, new: new, "replaced")
                #expect(throws: CryptStoreError.self) { _ = try Self.vault(folder, abandoned) }
            }
        }

        @Test func aStoreOfTheNewKeyFinishesTheInterruptedRotationBeforeItStartsAnother() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            try await withTemporaryFolder { folder in
                let old = Key.make(kind: 0, name: "old", in: folder)
                let new = Key.make(kind: 1, name: "new", in: folder)
                let third = Key.make(kind: 0, name: "third", in: folder)
                try Self.fill(folder, old)
                let arguments = ["rotate", folder.path, Self.namespace, old.argument, new.argument, "4"]
                _ = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }

                // The new key's store finishes the rotation to its own key first, then moves on to the third.
                var steps: [MasterKeyRotationStep] = []
                let rotated = try Self.vault(folder, new).rotateMasterKey(to: third.masterKey) { steps.append($0) }
                #expect(steps.filter { if case .began = $0 { true } else { false } }.count == 2)
                #expect(steps.filter { $0 == .switched }.count == 2)
                #expect(Self.readsEverySecret(rotated))
                try Self.expectFinished(folder, old: new, new: third, "rotated twice")
                #expect(throws: CryptStoreError.self) { _ = try Self.vault(folder, old) }
            }
        }

        @Test func afterTheSwitchTheOldKeyIsRefusedAndOnlyTheNewKeyCanFinish() async throws {
            let writer = try #require(CrashHarness.writerURL(), "ForgeCrashWriter was not built beside the tests")
            try await withTemporaryFolder { folder in
                let old = Key.make(kind: 0, name: "old", in: folder)
                let new = Key.make(kind: 0, name: "new", in: folder)
                let third = Key.make(kind: 0, name: "third", in: folder)
                try Self.fill(folder, old)
                let dieAfterSwitch = String(3 + Self.secrets.count)
                let arguments = ["rotate", folder.path, Self.namespace, old.argument, new.argument, dieAfterSwitch]
                _ = try await onOwnThread { try Process.runToEnd(writer, arguments: arguments) }

                let path = try Self.vault(folder, new).folderURL.path
                #expect(throws: CryptStoreError.masterKeyRotated(path: path)) { _ = try Self.vault(folder, old) }
                // A rotation from the old key to a third key cannot start: the old key no longer opens the vault.
                #expect(throws: CryptStoreError.masterKeyRotated(path: path)) {
                    try EncryptedFileCrypt.rotateMasterKey(
                        directory: .custom(folder),
                        namespace: Self.namespace,
                        from: old.masterKey,
                        to: third.masterKey
                    )
                }
                try Self.rerun(folder, old: old, new: new)
                try Self.expectFinished(folder, old: old, new: new, "finished after the switch")
            }
        }

        /// Runs `writer` with `arguments`, SIGKILLs it once it printed `count` lines, and returns every line it
        /// printed before it died, and whether the kill ended it.
        private static func runAndKill(
            _ writer: URL,
            _ arguments: [String],
            after count: Int
        ) throws -> (lines: [String], wasKilled: Bool) {
            let process = Process()
            process.executableURL = writer
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var data = Data()
            while data.count(where: { $0 == UInt8(ascii: "\n") }) < count {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            data.append(output.fileHandleForReading.readDataToEndOfFile())
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            return (lines, process.terminationReason == .uncaughtSignal)
        }
    }
}
