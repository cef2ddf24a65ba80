/// How much of a disk store's write survives once the call has returned.
///
/// Every write is atomic whatever the durability: it goes to a temporary file that is renamed over the
/// old one, so readers and a process that crashes mid-write find the old value or the new one, never a torn
/// file. Durability decides what a power loss or a kernel panic keeps.
///
/// ```swift
/// let ledger = DiskKVStore(directory: .applicationSupport, namespace: "ledger", durability: .flushed)
/// ```
public enum Durability: Sendable, Hashable, CaseIterable {
    /// Atomic, not flushed: the operating system writes the file to the device when it sees fit (within
    /// seconds on Linux and Apple platforms). A power loss may lose the latest writes, as it may with
    /// `UserDefaults`. The default: settings and caches rarely need more, and it costs no device flush.
    case atomic
    /// Atomic and flushed: the file is flushed to the device before it is renamed into place, and its folder
    /// after (`F_FULLFSYNC` on Apple platforms, `fsync` elsewhere), so a write that returned survives a power
    /// loss. Each write then costs a device flush, from well under a millisecond on a server's SSD to many
    /// milliseconds on a phone's flash.
    case flushed
}
