@testable import ForgeCore
@testable import ForgeCrypt
@testable import ForgeKVStore
import Foundation

/// The seed corpus of each target: well-formed inputs, as the stores write them, that the fuzzer mutates.
///
/// `FORGE_FUZZ_WRITE_CORPUS=<folder>` writes them into `<folder>/<target>/` and exits; the committed corpus in
/// `Fuzz/Corpus/` was made so.
enum SeedCorpus {
    static func seeds(of target: FuzzTarget) throws -> [String: Data] {
        switch target {
        case .kvFile:
            let profile = try JSONEncoder()
                .encode(
                    Profile(
                        name: "Ada",
                        age: 36,
                        tags: ["math"],
                        joined: Date(timeIntervalSince1970: 0),
                        scores: ["a": 1]
                    )
                )
            return [
                "string": Data("\"seed\"".utf8),
                "profile": profile,
                "expiring": ExpiryHeader.file(holding: profile, expiresAtMilliseconds: 1_767_225_660_000),
                "envelope": Data(#"{"key":"a-long-key","value":"seed"}"#.utf8),
            ]
        case .vaultHeader:
            return ["header": VaultFuzzing.sealer.header]
        case .vaultItem:
            return [
                "item": try VaultFuzzing.sealer.seal("token", for: "api-token"),
                "other key": try VaultFuzzing.sealer.seal("token", for: "refresh-token"),
            ]
        case .names:
            return [
                "plain": Data("theme.json".utf8),
                "encoded": Data(FileNameEncoding.encode("a/b:c é").utf8),
                "path": Data("notes/2026/today.txt".utf8),
                "climbing": Data("notes/../../etc/passwd".utf8),
            ]
        case .sqliteRow:
            // A text value without a lifetime, and a profile that expires (the header bytes: kind, lifetime, when).
            let profile = Data(#"{"name":"Ada","age":36,"tags":[],"scores":{}}"#.utf8)
            return [
                "text": Data([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + Data("\"dark\"".utf8),
                "expiring": Data([0, 1, 0, 0, 0x01, 0x9B, 0x5B, 0x2E, 0x0C, 0x00]) + profile,
            ]
        case .defaultsPropertyList:
            let list: [String: Any] = [
                "count": 3, "name": "Ada", "tags": ["a", "b"], "enabled": true,
                "profile": Data(#"{"name":"Ada","age":36,"tags":[],"scores":{}}"#.utf8),
            ]
            return [
                "xml": try PropertyListSerialization.data(fromPropertyList: list, format: .xml, options: 0),
                "binary": try PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0),
            ]
        }
    }

    /// Writes every target's seeds under `folder`.
    static func write(to folder: URL) throws {
        for target in FuzzTarget.allCases {
            let targetFolder = folder.appendingPathComponent(target.rawValue, isDirectory: true)
            try FileManager.default.createDirectory(at: targetFolder, withIntermediateDirectories: true)
            for (name, data) in try seeds(of: target) {
                try data.write(to: targetFolder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-")))
            }
        }
    }
}
