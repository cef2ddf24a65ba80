import ForgeCore
import ForgeStorageTesting
import Foundation

/// The storage under every handle of ``CryptReferenceStore``: secrets by namespace, then by key name.
///
/// A second handle is another store over the same backing and namespace; a neighbour, another namespace.
final class CryptBacking: Sendable {
    /// The secrets of each namespace, by key name (in NFC).
    let namespaces = LockedState<[String: [String: Data]]>([:])
    /// The names set in each namespace since its last `deleteAll`, deleted or not: read only by the
    /// `listsDeletedKeys` mutant, as a store's stale index of names.
    let written = LockedState<[String: Set<String>]>([:])

    /// Where the race mutants park a set between its two steps while a concurrency check makes a rival call.
    let raceGate = RaceGate()

    /// Stands for the system call a real store makes between two steps of one call, where another thread's call may
    /// run: the race mutants call it between their steps, and a concurrency check makes its rival call there.
    func betweenSteps() {
        raceGate.betweenSteps()
    }
}
