#if DEBUG
import ForgeCore
import Foundation

extension SystemCall {
    /// The faults the sweep gives this call in turn: the errors it can really return (its manual page's, those a
    /// disk, a full volume, a quota, a signal or a network volume cause), and a transfer cut short for `read` and
    /// `write`.
    var faults: [SystemFault] {
        let errors: [Int32] =
            switch self {
            case .open: [EACCES, EIO, ENOSPC, EMFILE, EINTR]
            case .read: [EIO, EINTR]
            case .write: [EIO, ENOSPC, EDQUOT, EINTR]
            case .sync: [EIO, ENOSPC]
            case .setPermissions: [EPERM, EIO]
            case .setTimes: [EPERM, EIO]
            case .lock: [EINTR, ENOLCK]
            case .tryLock: [EWOULDBLOCK, ENOLCK]
            case .rename: [EACCES, EIO, ENOSPC, EBUSY]
            case .link: [EIO, ENOSPC, EMLINK]
            case .makeFolder: [EACCES, EIO, ENOSPC]
            case .remove: [EACCES, EIO, EBUSY]
            case .status: [EIO, EACCES]
            case .list: [EIO, EMFILE]
            case .seek: [EIO]
            case .close, .release: [EIO, EINTR]
            case .access: [EIO]
            }
        let failures = errors.map { SystemFault.fail(errno: $0) }
        return self == .read || self == .write ? failures + [.short] : failures
    }
}

extension SystemFault {
    /// Whether an operation may succeed after this fault: the call is one to make again (`EINTR`), or moved part of
    /// its bytes and the rest can follow.
    var isRetried: Bool {
        switch self {
        case .fail(let code): code == EINTR
        case .short: true
        case .crash: false
        }
    }

    /// Whether the store must get past this fault on `call` and succeed: a transfer cut short, or a `read`, `write` or
    /// waiting lock interrupted by a signal, which the store makes again.
    func mustBeRetried(on call: SystemCall?) -> Bool {
        switch self {
        case .short: true
        case .fail(let code): code == EINTR && [.read, .write, .lock].contains(call)
        case .crash: false
        }
    }

    /// The reason a store's error must give for this fault.
    var reason: FailureReason? {
        guard case .fail(let code) = self else { return nil }
        return FileSystemError(.open, path: "", code: code).reason
    }

    /// A short name for the sweep's messages: the `errno` name, `short` or `crash`.
    var label: String {
        switch self {
        case .fail(let code): Self.errnoNames[code] ?? "errno \(code)"
        case .short: "short"
        case .crash: "crash"
        }
    }

    private static let errnoNames: [Int32: String] = [
        EACCES: "EACCES", EIO: "EIO", ENOSPC: "ENOSPC", EMFILE: "EMFILE", EINTR: "EINTR", EDQUOT: "EDQUOT",
        EPERM: "EPERM", ENOLCK: "ENOLCK", EBUSY: "EBUSY", EMLINK: "EMLINK", EWOULDBLOCK: "EWOULDBLOCK",
    ]
}
#endif
