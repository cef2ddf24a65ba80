@testable import ForgeCore
@testable import ForgeFileStore
@testable import ForgeKVStore
import Foundation

/// A name found in a store's folder (a key's file name, decoded back), and a path given to a file store.
enum NameFuzzing {
    static func run(_ data: Data) {
        let name = String(decoding: data, as: UTF8.self)
        if let key = FileNameEncoding.decode(name) {
            // A name that decodes is a key whose own encoding decodes to it again.
            let again = FileNameEncoding.decode(FileNameEncoding.encode(key))
            guard again == nil || again == key else {
                fatalError(
                    "names: \(name.debugDescription) decodes to \(key.debugDescription), whose encoding decodes to \(String(describing: again))"
                )
            }
        }
        _ = KeyFileName.key(ofExactName: name)
        _ = try? RelativePath(validating: name)
        _ = try? RelativePath(validatingFolder: name)
        do {
            let path = try StoredFilePath(validating: name)
            // A path that passes names no `..`, no empty name and nothing absolute.
            guard !path.string.hasPrefix("/"),
                !path.string.split(separator: "/", omittingEmptySubsequences: false)
                    .contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
            else { fatalError("names: \(name.debugDescription) passed as \(path.string.debugDescription)") }
        } catch {
            // Typed: `invalidPath`, the only error a path's check throws.
        }
    }
}
