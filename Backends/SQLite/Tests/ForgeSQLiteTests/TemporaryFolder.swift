import Foundation

/// Runs `body` with a new, empty folder of its own under the system's temporary folder, and removes the folder and
/// everything in it afterwards, whether `body` returns or throws.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-sqlite-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// A database file of its own in `folder`.
func databaseFile(in folder: URL) -> URL {
    folder.appendingPathComponent("\(UUID().uuidString).sqlite", isDirectory: false)
}
