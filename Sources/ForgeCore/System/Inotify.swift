#if canImport(Glibc) || canImport(Musl)
internal import Dispatch
internal import Foundation

#if canImport(Glibc)
@preconcurrency internal import Glibc
#else
@preconcurrency internal import Musl
#endif

/// The process's one inotify instance, shared by every folder watch: the system allows a user few instances (128 by
/// default, for all their processes), and many watches in each.
///
/// Watches of one folder by several sources share the kernel's watch descriptor; each source's handler is called for
/// its events, and the kernel's watch is removed with its last handler. The instance's descriptor is open while any
/// watch is.
final class Inotify: Sendable {
    /// One handler's watch of a folder.
    struct Watch: Sendable {
        /// The kernel's watch descriptor, shared by every handler of the folder.
        let descriptor: Int32
        /// The handler's number.
        let handler: Int
    }

    /// A handler of a folder's events, given the event's mask and name (empty for the folder itself).
    typealias Handler = @Sendable (_ mask: UInt32, _ name: String) -> Void

    // Unchecked: the dispatch source is not marked Sendable on Linux; the state is only used under its lock.
    private struct State: @unchecked Sendable {
        /// The instance's descriptor; -1 while no watch is open.
        var descriptor: Int32 = -1
        var source: (any DispatchSourceRead)?
        /// The handlers of each watched folder, by watch descriptor, then by number.
        var handlers: [Int32: [Int: Handler]] = [:]
        var lastHandler = 0
    }

    /// The instance.
    static let shared = Inotify()

    private let state = LockedState(State())

    /// Watches the folder at `path` for `mask` (added to what other handlers of that folder asked for), calling
    /// `handler` on the watches' queue for each of its events, and for a lost event (`IN_Q_OVERFLOW`).
    ///
    /// - Returns: The watch, for ``remove(_:)``; nil when the folder cannot be watched (missing, not a folder, no
    ///   watch left).
    func add(_ path: String, mask: UInt32, handler: @escaping Handler) -> Watch? {
        state.withLock { state in
            if state.descriptor < 0 { open(&state) }
            guard state.descriptor >= 0 else { return nil }
            let descriptor = inotify_add_watch(state.descriptor, path, mask | UInt32(IN_MASK_ADD))
            guard descriptor >= 0 else {
                closeIfUnused(&state)
                return nil
            }
            state.lastHandler += 1
            state.handlers[descriptor, default: [:]][state.lastHandler] = handler
            return Watch(descriptor: descriptor, handler: state.lastHandler)
        }
    }

    /// Stops calling the handler of `watch`, removing the kernel's watch after the folder's last handler.
    func remove(_ watch: Watch) {
        state.withLock { state in
            guard var handlers = state.handlers[watch.descriptor] else { return }
            handlers[watch.handler] = nil
            if handlers.isEmpty {
                state.handlers[watch.descriptor] = nil
                _ = inotify_rm_watch(state.descriptor, watch.descriptor)
            } else {
                state.handlers[watch.descriptor] = handlers
            }
            closeIfUnused(&state)
        }
    }

    /// Opens the instance and starts reading its events.
    private func open(_ state: inout State) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: FolderWatch.queue)
        source.setEventHandler { [self] in readEvents(from: descriptor) }
        source.setCancelHandler { _ = close(descriptor) }
        source.resume()
        state.descriptor = descriptor
        state.source = source
    }

    /// Closes the instance when no watch is left; the next ``add(_:mask:handler:)`` opens a new one.
    private func closeIfUnused(_ state: inout State) {
        guard state.handlers.isEmpty, let source = state.source else { return }
        source.cancel()
        state.source = nil
        state.descriptor = -1
    }

    /// Reads the events waiting on `descriptor` and calls their handlers.
    private func readEvents(from descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var events: [(watch: Int32, mask: UInt32, name: String)] = []
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 }
                    offset = nameStart + length
                    events.append((watch, mask, String(decoding: nameBytes, as: UTF8.self)))
                }
            }
            for event in events { dispatch(event.watch, event.mask, event.name) }
        }
    }

    /// Calls the handlers of one event: those of its folder, or every handler for a lost event.
    private func dispatch(_ watch: Int32, _ mask: UInt32, _ name: String) {
        let handlers = state.withLock { state -> [Handler] in
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { return state.handlers.values.flatMap(\.values) }
            let handlers = Array(state.handlers[watch]?.values ?? [:].values)
            if mask & UInt32(IN_IGNORED) != 0 {
                // The kernel removed the watch (its folder went): its handlers are told, then forgotten.
                state.handlers[watch] = nil
                closeIfUnused(&state)
            }
            return handlers
        }
        for handler in handlers { handler(mask, name) }
    }
}
#endif
