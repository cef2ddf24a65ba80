import ForgeCrypt
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

/// A master key for tests: a symmetric key of 32 bytes of `byte`, or a random one when nil.
func testMasterKey(_ byte: UInt8? = nil) -> MasterKey {
    if let byte { return .symmetric(SymmetricKey(data: Data(repeating: byte, count: 32))) }
    return .symmetric(SymmetricKey(size: .bits256))
}
