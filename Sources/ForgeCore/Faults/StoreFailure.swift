/// How an injected fault fails an operation: as a real disk or Keychain fails, or with your own error.
///
/// Each realistic failure surfaces as the typed error the real store throws for it: the store makes the
/// system error its disk call would have met (`ENOSPC`, `EACCES`, `EPERM`, `EIO`; for `InMemoryCrypt`'s
/// locked device the Keychain's `errSecInteractionNotAllowed`) and passes it through the real store's own
/// mapping, so nothing is rebuilt by hand:
///
/// | Failure | `InMemoryKVStore` (as `DiskKVStore`) | `InMemoryFileStore` (as `DiskFileStore`) | `InMemoryCrypt` |
/// |---|---|---|---|
/// | ``outOfSpace`` | `writeFailed` / `removeFailed` / `removeAllFailed` (`value(for:)`: `readFailed`; `keys()`: `listFailed`) with `.outOfSpace` | `writeFailed(path:reason: .outOfSpace)` and the like | `writeFailed(key:underlying: .outOfSpace)` and the like (`keys()`: `listFailed`), as the vault |
/// | ``permissionDenied`` | the same cases with `.permissionDenied` | `readFailed`/`writeFailed`/`deleteFailed`/`listFailed` with `.permissionDenied` | `readFailed`/`writeFailed`/`removeFailed`/`removeAllFailed`/`listFailed` with `.permissionDenied`, as the vault |
/// | ``deviceLocked`` | the same cases with `.permissionDenied` (data protection) | `.permissionDenied`, as data protection refuses to open the file | `notAccessibleNow(key:)`, as the Keychain |
/// | ``corruptData`` | `get` returns nil and `value(for:)` throws `decodingFailed`, as for a damaged file on disk | `load` returns the first half of the file (a torn copy), which `loadJSON` refuses with `decodingFailed` | `get` throws `tamperedItem(key:)` when a secret is stored |
///
/// `KVStoring.get(_:)` and `contains` do not throw, so a fault on them shows as a disk shows
/// it: any read fault makes `get` return nil. A fault on `contains` or `exists` (`StoreOperation.exists`)
/// makes it return false for ``permissionDenied`` and ``error(_:)``, and changes nothing for the others (a
/// full disk, a locked device and a damaged file leave the file's existence readable); `InMemoryCrypt`'s
/// `contains` throws `notAccessibleNow(key:)` while the device is locked. ``corruptData`` on an operation
/// other than a read fails it as an I/O error (`EIO`) does, with the reason `.ioError`.
public enum StoreFailure: Sendable {
    /// The volume is full (`ENOSPC`).
    case outOfSpace
    /// The process may not do this (`EACCES`).
    case permissionDenied
    /// The device is locked: protected files cannot be opened, and the Keychain answers "not accessible now".
    case deviceLocked
    /// The stored bytes are damaged.
    case corruptData
    /// Throws `error` as it is (a read that cannot throw returns nil or false instead).
    case error(any Error & Sendable)
}

extension StoreFailure {
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
    /// try instrument?.begin(.write, target: key)?.fail(.open, key) { KVStoreError($0, writing: key) }
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

extension StoreFailure {
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

extension StoreFailure {
    /// True for ``corruptData``.
    package var isCorruptData: Bool {
        if case .corruptData = self { return true }
        return false
    }
}
