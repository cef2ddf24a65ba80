internal import ForgeCore
public import Foundation

/// Files written and inspected as another program would: through Foundation, never through the stores' own
/// folder code, so a test's set-up does not share the code it tests.
///
/// Writes wait until the leftover sweeps of the stores already created have finished: they stand for a program
/// writing into an open store, not one racing the clean-up of its first open, which removes folders it finds
/// empty (one made, its first file not written yet).
public enum ForeignFiles {
    /// The permission bits of what `path` names (links followed); nil when nothing is there.
    public static func permissions(atPath path: String) throws -> UInt16? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber).map { UInt16(truncating: $0) }
    }

    /// Sets the permission bits of what `path` names.
    public static func setPermissions(_ permissions: UInt16, atPath path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: NSNumber(value: permissions)], ofItemAtPath: path)
    }

    /// Writes `data` to `path`, creating the folders on the way, with `permissions`.
    public static func write(_ data: Data, toPath path: String, permissions: UInt16 = 0o644) throws {
        StoreFolder.waitForLeftoverSweeps()
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        try setPermissions(permissions, atPath: path)
    }

    /// Creates the folder at `path` and the folders on the way.
    public static func createFolder(atPath path: String) throws {
        StoreFolder.waitForLeftoverSweeps()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
}
