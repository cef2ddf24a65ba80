import ForgeCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The storage under every handle of ``CryptReferenceStore``: secrets by namespace, then by key name.
///
/// A second handle is another store over the same backing and namespace; a neighbour, another namespace.
final class CryptBacking: Sendable {
    /// The secrets of each namespace, by key name (in NFC).
    let namespaces = LockedState<[String: [String: Data]]>([:])
    /// The names set in each namespace since its last `deleteAll`, deleted or not: read only by the
    /// `listsDeletedKeys` mutant, as a store's stale index of names.
    let written = LockedState<[String: Set<String>]>([:])

    /// Stands for the system call a real store makes between two steps of one call.
    ///
    /// A file write or a Keychain query is a point where the system may run another thread. The race mutants call
    /// this between their steps, so on a busy machine another thread runs there as it would in a real store, not
    /// only when a spare core runs it at the same time.
    func betweenSteps() {
        sched_yield()
    }
}
