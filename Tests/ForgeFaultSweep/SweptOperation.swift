#if DEBUG
import ForgeCore
import Foundation

/// One operation of a disk-backed store that the sweep fails call by call: how to make the folder it finds, open the
/// store, run it, read what the folder holds, and make the next call.
struct SweptOperation: Sendable {
    /// The name the sweep prints, `store.operation`.
    let name: String
    /// The key or path the operation's errors must name; nil for an operation on the whole store.
    let subject: String?
    /// Whether a failed run may leave some of the old contents removed.
    ///
    /// A cache's save evicts files before it writes (and a cache may drop what it holds), a vault's `deleteAll`
    /// removes its items one by one. Each value left must still be whole, as it was or as the run made it.
    var removesPart = false
    /// Whether the names in the folder are the same in every run: a vault names its items with a key of its own, new
    /// in each fresh folder.
    var namesAreStable = true
    /// Whether a failed run leaves work that the next run finishes (a rotation of the master key): the folder may then
    /// hold files between the old contents and the new, which the sweep does not compare.
    var resumes = false
    /// The names of files a store writes only as an aid it checks before trusting (`DiskKVStore`'s index of
    /// lifetimes): a write of one that fails is not the operation's failure.
    var advisoryFiles: Set<String> = []
    /// The folder whose calls the sweep counts and fails, given the run's folder: the run's folder itself, unless the
    /// store keeps its files elsewhere (`UserDefaults` in `XDG_CONFIG_HOME`).
    var watchedFolder: (@Sendable (URL) -> URL)?
    /// Fills the fresh folder with what the operation finds there: the values acknowledged before it.
    let seed: @Sendable (URL) async throws -> Void
    /// Opens the store on the folder, and reads once, so that what an instance keeps open is open before the
    /// operation's descriptors are counted.
    let open: @Sendable (URL) async throws -> OpenedStore
    /// What a new process reads in the folder, when a new instance in this process would not read the files again
    /// (`UserDefaults` keeps a domain it read); nil to open a new instance.
    var read: (@Sendable (URL) async throws -> [String: String])?
    /// A promise of the store checked once the next write is done, which throws ``SweepViolation`` when broken: a
    /// cache's budget, which a count below what the store holds would let a save exceed.
    var promise: (@Sendable (URL) async throws -> Void)?

    /// The store an operation runs on, as closures over one instance.
    struct OpenedStore: Sendable {
        /// The operation.
        let run: @Sendable () async throws -> Void
        /// Everything the instance shows, as text: its keys or paths and their values.
        let contents: @Sendable () async throws -> [String: String]
        /// Another write on the same instance, which must work whatever happened before, and its check.
        let next: @Sendable () async throws -> Void
    }
}

extension SweptOperation {
    /// Whether `seen` is what a run that removes part of the contents may leave: values as they were in `before` or as
    /// the run made them in `after`, some missing.
    func isPartlyRemoved(_ seen: [String: String], before: [String: String], after: [String: String]) -> Bool {
        removesPart && seen.allSatisfy { key, value in before[key] == value || after[key] == value }
    }

    /// The folder whose calls count in a run in `folder`.
    func watched(_ folder: URL) -> URL {
        watchedFolder?(folder) ?? folder
    }
}

/// A state the sweep found that a store promises never to leave.
struct SweepViolation: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
#endif
