import ForgeFileStore
import ForgeTestSupport
import Foundation
import Testing

/// Generated hostile paths, and damaged files on disk: nothing escapes, collides or traps, and every store
/// accepts and refuses the same paths.
@Suite("FileStoring with hostile input")
struct FileStoringHostileInputTests {
    /// What one generated save did: the name of the error it threw, or nil when it saved.
    private static func outcomes(of paths: [String], in store: any FileStoring) async -> [String?] {
        var outcomes: [String?] = []
        for (index, path) in paths.enumerated() {
            do {
                try await store.save(Data("\(index)".utf8), to: path, overwrite: index % 5 != 0)
                outcomes.append(nil)
            } catch let error as FileStoreError {
                outcomes.append(Self.caseName(of: error))
            } catch {
                Issue.record("'\(path.debugDescription)' failed with an untyped error: \(error)")
                outcomes.append("untyped")
            }
        }
        return outcomes
    }

    private static func caseName(of error: FileStoreError) -> String {
        switch error {
        case .invalidPath: "invalidPath"
        case .alreadyExists: "alreadyExists"
        case .writeFailed(_, let reason): "writeFailed(\(reason))"
        default: "\(error)"
        }
    }

    private static func generatedPaths(seed: UInt64, count: Int) -> [String] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in HostileNames.path(using: &generator) }
    }

    @Test func diskAndMemoryAcceptAndRefuseTheSameGeneratedPaths() async throws {
        let paths = Self.generatedPaths(seed: 0xD15C, count: 1_500)
        let memory = await Self.outcomes(of: paths, in: InMemoryFileStore())
        try await withTemporaryFolder { base in
            let disk = await Self.outcomes(of: paths, in: DiskFileStore(directory: .custom(base), namespace: "x"))
            for (index, path) in paths.enumerated() where memory[index] != disk[index] {
                Issue.record(
                    "'\(path.debugDescription)': memory \(memory[index] ?? "saved"), disk \(disk[index] ?? "saved")"
                )
            }
        }
        #expect(memory.contains { $0 == nil } && memory.contains { $0 == "invalidPath" })
    }

    @Test(arguments: FileStoreKind.allCases)
    func generatedPathsNeverCollideAndEachLoadsItsOwnFile(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            // Keyed as Swift compares strings: canonically equivalent spellings are one path by design.
            var model: [String: Data] = [:]
            for (index, path) in Self.generatedPaths(seed: 0xC0111DE, count: 1_500).enumerated() {
                let data = Data("\(index):\(path)".utf8)
                do {
                    try await store.save(data, to: path)
                    model[path] = data
                } catch let error as FileStoreError {
                    switch error {
                    case .invalidPath, .writeFailed(_, .isFolder), .writeFailed(_, .parentIsFile): continue
                    default: Issue.record("'\(path.debugDescription)': unexpected \(error)")
                    }
                }
            }
            for (path, data) in model {
                #expect(try await store.load(path) == data, "\(path.debugDescription)")
            }
            #expect(try await store.totalSize() == model.values.reduce(0) { $0 + $1.count })
        }
    }

    @Test func diskPathsStayInTheNamespaceFolder() async throws {
        try await withTemporaryFolder { base in
            let store = DiskFileStore(directory: .custom(base), namespace: "hostile")
            var saved = 0
            for path in Self.generatedPaths(seed: 0xE5CA9E, count: 1_500) {
                guard (try? await store.save(Data("x".utf8), to: path)) != nil else { continue }
                saved += 1
            }
            #expect(saved > 100)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: base.path) == [store.folderURL.lastPathComponent]
            )
            let root = store.folderURL.resolvingSymlinksInPath().path
            let enumerator = try #require(FileManager.default.enumerator(atPath: root))
            while let relative = enumerator.nextObject() as? String {
                let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + relative)
                let type = attributes[.type] as? FileAttributeType
                #expect(
                    type == .typeRegular || type == .typeDirectory,
                    "\(relative.debugDescription): \(String(describing: type))"
                )
                #expect(!relative.split(separator: "/").contains(".."))
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func damagedJSONFilesAreTypedDecodingErrorsAndTheNextSaveRepairsThem(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            let value = ["theme": "dark", "font": "Menlo"]
            try await store.saveJSON(value, to: "settings.json")
            let whole = try await store.load("settings.json")
            var generator = SeededGenerator(seed: 0x15_0B)
            var damaged: [Data] = (0..<whole.count).map { whole.prefix($0) }
            damaged += (0..<50).map { _ in Data(generator.bytes(1...200)) }
            damaged += ["null", "[1]", "42", "\"text\"", "{\"theme\": 1}"].map { Data($0.utf8) }
            for bytes in damaged {
                try await store.save(bytes, to: "settings.json")
                let text = String(decoding: bytes, as: UTF8.self).debugDescription
                await #expect(throws: FileStoreError.self, "\(text)") {
                    _ = try await store.loadJSON("settings.json", as: [String: String].self)
                }
                await #expect(throws: FileStoreError.self, "\(text)") {
                    _ = try await store.loadJSONIfExists("settings.json", as: [String: String].self)
                }
                try await store.saveJSON(value, to: "settings.json")
                #expect(try await store.loadJSON("settings.json") == value)
            }
        }
    }
}
