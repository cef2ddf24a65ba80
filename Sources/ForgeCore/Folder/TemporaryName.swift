internal import Foundation

/// The names of the temporary files and folders a store makes while it writes or removes.
///
/// A temporary name is hidden (it starts with a dot), starts with at most 64 bytes of the name it stands in for,
/// then ``marker``, the writer's process id, `-` and a random part: `.notes.txt.forge-tmp-4242-1x8k2p`. Stores
/// never show such names as content, and remove those of processes that no longer run.
package enum TemporaryName {
    /// Marks every temporary name.
    package static let marker = ".forge-tmp-"

    /// A fresh temporary name for `name`, to be made in the same folder.
    package static func make(for name: String) -> String {
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return prefix(for: name) + "\(ProcessInfo.processInfo.processIdentifier)-\(random)"
    }

    /// How every temporary name for `name` starts: a dot, at most 64 bytes of `name` (cut between Unicode scalars,
    /// so a temporary name fits a file name whatever the length of `name`), and the marker.
    package static func prefix(for name: String) -> String {
        var kept = String.UnicodeScalarView()
        var byteCount = 0
        for scalar in name.unicodeScalars {
            byteCount += UTF8.width(scalar)
            guard byteCount <= 64 else { break }
            kept.append(scalar)
        }
        return "." + String(kept) + marker
    }

    /// Whether `name` has the form of a temporary name, of any process, running or not.
    package static func isTemporary(_ name: some StringProtocol) -> Bool {
        name.hasPrefix(".") && name.contains(marker)
    }

    /// Whether `name` is a temporary name of a writer whose process no longer runs.
    ///
    /// The temporaries of running processes, this one included, are never orphans: their writes may still land.
    package static func isOrphaned(_ name: String) -> Bool {
        // The last marker is the writer's own: the name before it comes from a key or path and may hold one.
        guard name.hasPrefix("."), let marker = name.range(of: marker, options: .backwards) else { return false }
        let rest = name[marker.upperBound...]
        guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { return false }
        return pid != ProcessInfo.processInfo.processIdentifier && Descriptor.processIsGone(pid)
    }
}
