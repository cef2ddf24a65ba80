internal import Foundation

/// A kind of call the stores make to the C library on a file or folder, as the fault sweep counts and fails them.
///
/// Every such call of the `Descriptor*.swift` files is made through ``systemCall(_:on:_:)`` or
/// ``systemCall(_:on:count:_:)``: the one place where a debug build lets `ForgeFaultSweep` (under `Tests/`) fail it.
/// The folder notifications (`Inotify.swift`, `FolderWatch+…`) only watch, and are outside the sweep.
package enum SystemCall: String, Sendable, Hashable, CaseIterable {
    /// `open`, `openat`, `openat2`.
    case open
    /// `read`, `pread`.
    case read
    /// `write`, `pwrite`.
    case write
    /// `fsync` (`F_FULLFSYNC` on Apple platforms).
    case sync
    /// `fchmod`.
    case setPermissions
    /// `utimensat`.
    case setTimes
    /// `flock` that waits for the lock.
    case lock
    /// `flock` that gives up at once when another holds the lock (`LOCK_NB`).
    case tryLock
    /// `renameat`.
    case rename
    /// `linkat`.
    case link
    /// `mkdirat`.
    case makeFolder
    /// `unlinkat`.
    case remove
    /// `fstat`, `fstatat`, `stat`.
    case status
    /// The listing of a folder: `fcntl(F_DUPFD_CLOEXEC)` and `fdopendir`, then each `readdir` (`rewinddir`, which
    /// cannot fail, is made directly).
    case list
    /// `lseek`.
    case seek
    /// `close`, whose result the store hears: a file it wrote, closed before it is renamed into place.
    case close
    /// `close` of a descriptor that goes away (a folder, a file read, a write given up), whose result changes
    /// nothing: the descriptor is released either way.
    case release
    /// `access`.
    case access
}

/// Makes the C call `body`, a `call` on `path`, and returns what it returns (-1 with `errno` set when it fails).
///
/// In a release build this is `body()`. In a debug build (`FORGE_SYSTEM_FAULTS`), while a fault sweep's
/// `SystemFaultPlan` covers `path`, the call is counted, and the one the plan names fails with its `errno`, or runs
/// and then ends the process (a crash right after it).
@inline(__always)
func systemCall<Result: BinaryInteger>(
    _ call: SystemCall,
    on path: @autoclosure () -> String,
    _ body: () -> Result
) -> Result {
    #if FORGE_SYSTEM_FAULTS
    SystemFaults.make(call, on: path, failing: -1, body)
    #else
    body()
    #endif
}

/// Makes the C call `body`, a `call` on `path` that returns nil when it fails (`errno` set), as `fdopendir` and
/// `readdir` do; a fault sweep fails it as ``systemCall(_:on:_:)`` does.
@inline(__always)
func systemCall<Wrapped>(_ call: SystemCall, on path: @autoclosure () -> String, _ body: () -> Wrapped?) -> Wrapped? {
    #if FORGE_SYSTEM_FAULTS
    SystemFaults.make(call, on: path, failing: nil, body)
    #else
    body()
    #endif
}

/// Makes the C call `body`, a `read` or `write` of `count` bytes on `path`, given the count to ask for, and returns
/// the bytes moved (-1 with `errno` set when it fails).
///
/// A fault sweep may also cut it short: `body` is then asked for fewer bytes (half), as a call interrupted by a signal
/// part-way, or a write to a volume that fills, returns fewer than asked.
@inline(__always)
func systemCall(_ call: SystemCall, on path: @autoclosure () -> String, count: Int, _ body: (Int) -> Int) -> Int {
    #if FORGE_SYSTEM_FAULTS
    SystemFaults.make(call, on: path, count: count, body)
    #else
    body(count)
    #endif
}
