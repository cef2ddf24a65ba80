internal import ForgeFileStore
internal import Foundation
internal import Testing

// What the checks of `deleteAll` share: every hostile path saved, then expected gone from one store and kept whole by
// another.

extension AsyncFileStoringConformance {
    /// A file for each of ``hostileFilePaths``, its contents naming `owner` and the path's index, so that two stores'
    /// files differ.
    static func hostileFiles(of owner: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for (index, path) in hostileFilePaths.enumerated() {
            files[path] = Data("\(owner) \(index)".utf8)
        }
        return files
    }

    /// Saves each of `files` in `store`.
    ///
    /// - Throws: What the store's `save` throws.
    static func save(_ files: [String: Data], in store: any AsyncFileStoring) async throws {
        for (path, data) in files {
            try await store.save(data, to: path)
        }
    }

    /// Expects `store` to hold none of the hostile paths, in the spelling given or in NFC, to list nothing and to
    /// count no byte.
    ///
    /// - Parameters:
    ///   - store: The store whose `deleteAll` ran, or another handle on its storage.
    ///   - handle: The store as the failure names it: "the store", "the second handle".
    ///   - sourceLocation: Where to report a file left behind.
    /// - Throws: What the store throws.
    static func expectNoHostileFile(
        in store: any AsyncFileStoring,
        _ handle: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for path in hostileFilePaths {
            for spelling in Set([path, path.precomposedStringWithCanonicalMapping]) {
                #expect(
                    try await !store.exists(spelling),
                    "\(handle) still holds \(spelling.prefix(40).debugDescription) after deleteAll",
                    sourceLocation: sourceLocation
                )
            }
        }
        let left = "\(handle) lists files after deleteAll"
        #expect(try await store.list(in: "") == [], "\(left)", sourceLocation: sourceLocation)
        #expect(try await store.list(in: "names") == [], "\(left)", sourceLocation: sourceLocation)
        #expect(
            try await store.totalSize() == 0,
            "\(handle) counts bytes after deleteAll",
            sourceLocation: sourceLocation
        )
    }

    /// Expects `store` to hold exactly `files`: each loads as saved, the top folder lists their first names, and
    /// `totalSize` is the sum of their sizes.
    ///
    /// - Parameters:
    ///   - files: What `store` holds: the contents by path.
    ///   - store: The neighbour, which must keep all of its own files.
    ///   - sourceLocation: Where to report a file lost or changed.
    /// - Throws: What the store throws.
    static func expectExactly(
        _ files: [String: Data],
        in store: any AsyncFileStoring,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for (path, data) in files {
            #expect(
                try await store.load(path) == data,
                "file \(path.prefix(40).debugDescription)",
                sourceLocation: sourceLocation
            )
        }
        let entries = Set(
            files.keys.map { path in
                let names = path.precomposedStringWithCanonicalMapping.split(separator: "/")
                return names.count > 1 ? names[0] + "/" : String(names[0])
            }
        )
        #expect(try await store.list(in: "") == entries.sorted(), sourceLocation: sourceLocation)
        #expect(try await store.totalSize() == files.values.reduce(0) { $0 + $1.count }, sourceLocation: sourceLocation)
    }
}
