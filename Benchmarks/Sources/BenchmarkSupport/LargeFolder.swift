import Foundation
import Synchronization

/// A base folder whose store folder holds many files, reached through paths of its own: a store opened through a
/// path not used before in the process is the first store of that folder path, and starts the sweep of leftovers
/// that an app's first open starts.
public final class LargeFolder: Sendable {
    /// The base folder, whose sub-folder `namespace` holds the files.
    public let base: URL
    /// Links to ``base``, one per first open.
    private let aliases: [URL]
    /// How many aliases were handed out.
    private let used = Mutex(0)

    /// Fills `base/namespace` with `count` files named by `name`, holding `contents`, unless an earlier process of
    /// the same run already did; and makes `aliases` links to `base`.
    public init(_ name: String, namespace: String, count: Int, aliases: Int, file: (Int) -> String, contents: Data) {
        let base = Scratch.root.appendingPathComponent(name, isDirectory: true)
        self.base = base
        let folder = base.appendingPathComponent(namespace, isDirectory: true)
        let complete = Scratch.root.appendingPathComponent("\(name).complete")
        if !FileManager.default.fileExists(atPath: complete.path) {
            try? FileManager.default.removeItem(at: base)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in 0..<count { Limit.writeAtomically(contents, toPath: folder.path + "/" + file(index)) }
            _ = FileManager.default.createFile(atPath: complete.path, contents: nil)
        }
        let linkFolder = Scratch.folder("\(name)-aliases")
        self.aliases = (0..<aliases)
            .map { index in
                let link = linkFolder.appendingPathComponent("alias-\(index)", isDirectory: true)
                try? FileManager.default.createSymbolicLink(at: link, withDestinationURL: base)
                return link
            }
    }

    /// A path to ``base`` that no store has opened yet; ``base`` itself once every alias is used.
    public func freshAlias() -> URL {
        let index = used.withLock { used in
            defer { used += 1 }
            return used
        }
        return index < aliases.count ? aliases[index] : base
    }
}
