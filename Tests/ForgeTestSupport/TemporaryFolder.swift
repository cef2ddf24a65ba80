public import Foundation

/// Runs `body` with a new, empty folder of its own, and removes the folder and everything in it afterwards.
///
/// The folder is made under the system's temporary folder with a unique name, readable by this user only. It is
/// removed when `body` returns and when it throws.
///
/// ```swift
/// try await withTemporaryFolder { folder in
///     let store = try DiskFileStore(directory: .custom(folder))
///     // ...
/// }
/// ```
///
/// - Parameter body: The work to do in the folder.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws, or the error of creating the folder.
public func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
        at: folder,
        withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700]
    )
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
