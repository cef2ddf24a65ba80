#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
@preconcurrency internal import Glibc
#elseif canImport(Musl)
@preconcurrency internal import Musl
#elseif canImport(Android)
@preconcurrency internal import Android
#endif

/// The hook an in-memory store calls once per operation when a test asked for faults or an operation log.
///
/// A store made without one holds nil and pays a single nil check per call. ForgeStorageTesting provides
/// the only conformance: it appends the operation to the log and returns the fault to inject, if any.
package protocol StoreInstrument: Sendable {
    /// Records `operation` on `target` (a key or path, nil for the whole store) and returns the fault the
    /// store must fail it with, or nil to let it run.
    func begin(_ operation: StoreOperationKind, target: String?) -> InjectedFault?
}

/// What an in-memory store is about to do.
package enum StoreOperationKind: Sendable, Hashable {
    /// `get` or `load`.
    case read
    /// `contains` or `exists`.
    case exists
    /// `set` or `save`.
    case write
    /// `remove` or `delete` of one key or path.
    case delete
    /// `removeAll` or `deleteAll`.
    case deleteAll
    /// `list(in:)` or `totalSize()`.
    case list
}

/// The failure an instrument asks a store to fail an operation with.
package enum InjectedFault: Sendable {
    /// The volume is full (`ENOSPC`).
    case outOfSpace
    /// The process may not do this (`EACCES`).
    case permissionDenied
    /// The device is locked: data protection keeps files closed (`EPERM`) and the Keychain answers
    /// `errSecInteractionNotAllowed`.
    case deviceLocked
    /// The stored bytes are damaged: reads find them unreadable; other operations fail with `EIO`.
    case corruptData
    /// This exact error, thrown as it is.
    case error(any Error & Sendable)

    /// The `errno` a disk call would have returned for this fault.
    package var code: Int32 {
        switch self {
        case .outOfSpace: ENOSPC
        case .permissionDenied: EACCES
        case .deviceLocked: EPERM
        case .corruptData, .error: EIO
        }
    }

    /// The `FileSystemError` the disk call `operation` on `path` would have thrown for this fault.
    package func systemError(_ operation: FileSystemError.Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: code)
    }
}

extension InjectedFault {
    /// True when an existence check fails under this fault the way a disk's `stat` does: a denied
    /// permission (or a test's own error) hides the item; a full disk, a locked device (metadata stays
    /// readable) or damaged contents do not.
    package var hidesItems: Bool {
        switch self {
        case .permissionDenied, .error: true
        case .outOfSpace, .deviceLocked, .corruptData: false
        }
    }
}

extension InjectedFault {
    /// True for ``corruptData``.
    package var isCorruptData: Bool {
        if case .corruptData = self { return true }
        return false
    }
}
