package import Foundation

/// A tiny file system of its own for one test (a Linux `tmpfs` of a fixed size), to fill up or to make
/// read-only.
///
/// Mounting needs root on Linux (CI containers usually are). Where it is not possible, ``isAvailable`` is
/// false and the tests that need a volume are skipped with that reason:
///
/// ```swift
/// @Test(.enabled(if: SmallVolume.isAvailable, Comment(rawValue: SmallVolume.unavailableReason)))
/// func aFullDiskKeepsTheOldValue() throws {
///     let volume = try SmallVolume(bytes: 512 * 1024)
///     defer { volume.unmount() }
/// }
/// ```
package final class SmallVolume: Sendable {
    /// The folder the volume is mounted on.
    package let url: URL

    /// Whether this process can mount a small volume here.
    package static let isAvailable: Bool = {
        guard let volume = try? SmallVolume(bytes: 64 * 1024) else { return false }
        volume.unmount()
        return true
    }()

    /// Why the volume tests are skipped when ``isAvailable`` is false.
    package static let unavailableReason =
        "mounting a small tmpfs needs Linux and root (mount -t tmpfs); these tests are skipped here"

    /// Mounts a new, empty volume of `bytes` bytes on a fresh temporary folder.
    ///
    /// - Throws: ``Failure`` when the volume cannot be mounted.
    package init(bytes: Int) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("forge-volume-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder
        do {
            try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", folder.path])
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Makes the volume read-only: every write fails with `EROFS`, for root too.
    package func makeReadOnly() throws {
        try Self.run("/bin/mount", ["-o", "remount,ro", url.path])
    }

    /// Unmounts the volume, dropping what it holds, and removes its folder.
    package func unmount() {
        try? Self.run("/bin/umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    /// The free bytes on the volume.
    package func freeBytes() throws -> Int {
        let attributes = try FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes[.systemFreeSize] as? NSNumber)?.intValue ?? 0
    }

    /// A failed mount or unmount.
    package struct Failure: Error, CustomStringConvertible {
        /// The command and its exit status.
        package let description: String
    }

    private static func run(_ command: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: command) else {
            throw Failure(description: "\(command) is missing")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(command) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)"
            )
        }
    }
}
