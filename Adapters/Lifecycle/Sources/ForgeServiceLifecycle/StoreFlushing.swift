/// A store that writes behind: it keeps changes pending for a while, and writes them all when asked.
///
/// `UserDefaultsKVStore` is one: on Linux its changes reach the property list a few milliseconds after they are made,
/// and ``flush()`` writes them now. Declare the conformance for a store of your own that buffers its writes, and a
/// ``StoreFlushService`` flushes it on a graceful shutdown:
///
/// ```swift
/// extension AuditLog: StoreFlushing {}  // its `func flush() async throws` writes the buffered entries
/// ```
public protocol StoreFlushing: Sendable {
    /// Writes every change made before the call, and returns once they are written.
    ///
    /// - Throws: The store's error when the changes cannot be written; they stay pending, for the next flush.
    func flush() async throws
}
