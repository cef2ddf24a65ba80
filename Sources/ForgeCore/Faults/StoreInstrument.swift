/// The hook an in-memory store calls once per operation when a test asked for faults or an operation log.
///
/// A store made without one holds nil and pays a single nil check per call. ForgeStorageTesting provides
/// the only conformance: it appends the operation to the log and returns the fault to inject, if any.
package protocol StoreInstrument: Sendable {
    /// Records `operation` on `target` (a key or path, nil for the whole store) and returns the fault the
    /// store must fail it with, or nil to let it run.
    func begin(_ operation: StoreOperation, target: String?) -> InjectedFault?
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

    /// The `FileSystemError` the disk call `operation` on `path` would have thrown for this fault.
    package func systemError(_ operation: FileSystemError.Operation, path: String) -> FileSystemError {
        FileSystemError(operation, path: path, code: code)
    }

    /// Throws what a store throws when the disk call `operation` on `path` fails as this fault says.
    ///
    /// The call's ``systemError(_:path:)`` goes through `mapping`, the one the disk store uses for the same
    /// call, so the fault surfaces exactly as the real failure does; an ``error(_:)`` fault is the test's own
    /// error, thrown as it is. It never returns, so an in-memory store fails an operation in one line:
    ///
    /// ```swift
    /// try report(.write, key)?.fail(.open, key) { KVStoreError($0, writing: key) }
    /// ```
    ///
    /// - Parameters:
    ///   - operation: The system call the disk store would have made.
    ///   - path: The key or path the call was for (empty for the whole store).
    ///   - mapping: The store's translation of a failed system call into its own error.
    /// - Throws: The store's error for the call, or the test's own error.
    package func fail(
        _ operation: FileSystemError.Operation,
        _ path: String,
        mappedBy mapping: (FileSystemError) -> some Error
    ) throws {
        if case .error(let error) = self { throw error }
        throw mapping(systemError(operation, path: path))
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
