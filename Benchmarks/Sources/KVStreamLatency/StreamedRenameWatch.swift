#if canImport(Glibc)
import Dispatch
import Glibc

/// ``RenameWatch`` the way an async observer hears of it: the inotify descriptor read by a dispatch source on a
/// queue of its own, each rename of the file handed to the waiting task through an `AsyncStream`.
///
/// The same two hops as the library's folder watch and streams (the kernel wakes the queue's thread, which resumes
/// the waiting task on another), without the library's own work: beside ``RenameWatch`` it shows what the hops
/// cost, beside ours what the library adds to them.
final class StreamedRenameWatch {
    /// One element per rename of the file into the folder.
    let renames: AsyncStream<Void>
    private let source: any DispatchSourceRead

    /// Watches `folder` for `fileName` renamed into it; nil when inotify refuses.
    init?(folder: String, fileName: String) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, RenameWatch.events) >= 0 else {
            close(descriptor)
            return nil
        }
        let (renames, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
        self.renames = renames
        let source = DispatchSource.makeReadSource(
            fileDescriptor: descriptor,
            queue: DispatchQueue(label: "KVStreamLatency.StreamedRenameWatch")
        )
        // Reads until the descriptor is empty (it does not block), telling the waiting task of each rename.
        source.setEventHandler {
            withUnsafeTemporaryAllocation(byteCount: 4_096, alignment: 8) { buffer in
                while true {
                    let count = read(descriptor, buffer.baseAddress, buffer.count)
                    guard count > 0 else { return }
                    let events = UnsafeRawBufferPointer(buffer)
                    if RenameWatch.events(in: events, count: count, renameInto: fileName) { continuation.yield() }
                }
            }
        }
        source.setCancelHandler {
            close(descriptor)
            continuation.finish()
        }
        self.source = source
        source.resume()
    }

    deinit { source.cancel() }
}
#endif
