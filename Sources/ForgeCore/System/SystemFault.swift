#if FORGE_SYSTEM_FAULTS
// The fault sweep's side of `systemCall` (SystemCall.swift): compiled into debug builds only (`FORGE_SYSTEM_FAULTS`, set
// by Package.swift for the debug configuration), so that a release build makes its calls with nothing in between.

/// What a fault sweep does to the call its plan names.
package enum SystemFault: Sendable, Hashable {
    /// The call is not made; it returns its failure with `errno` set to `code`.
    case fail(errno: Int32)
    /// A `read` or `write` moves half the bytes asked for (any other call is made as it is).
    case short
    /// The call is made, then the process is killed (`SIGKILL`): a crash right after it.
    case crash
}
#endif
