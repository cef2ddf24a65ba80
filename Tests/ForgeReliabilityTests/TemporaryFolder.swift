import ForgeCore
import Foundation

/// A fresh folder for one test, removed when the test's body returns.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("forge-crash-tests-" + UUID().uuidString)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(URL(fileURLWithPath: path, isDirectory: true))
}
