public import Foundation

/// An error of ``ForgeSessionDriver``.
///
/// A failure to reach the store is the store's own error (a `KVStoreError` naming the key), thrown as it is.
public enum ForgeVaporError: LocalizedError, Sendable, Hashable {
    /// Each of `attempts` new random session identifiers was already taken in the store: with 256 random bits per
    /// identifier, a sign that the store answers every conditional write as taken, not bad luck.
    case sessionIDsTaken(attempts: Int)

    /// A readable sentence saying what failed.
    public var errorDescription: String? {
        switch self {
        case .sessionIDsTaken(let attempts):
            "No new session could be stored: each of \(attempts) random session identifiers was already taken."
        }
    }
}
