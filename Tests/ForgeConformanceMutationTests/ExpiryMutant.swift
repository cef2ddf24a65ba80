/// A realistic way to break a store that keeps lifetimes, switched on in ``ExpiringReferenceStore``, and the check of
/// `ExpiryConformance` that kills it.
enum ExpiryMutant: String, CaseIterable, CustomStringConvertible, Sendable {
    /// `removeAll` clears the values but not the index of expiry dates, so the next reclaim spends its limit on values
    /// that are gone. Killed by "removeAll forgets the lifetimes it removed: a reclaim spends its limit on values still
    /// stored".
    case removeAllKeepsTheExpiryIndex
    /// `storeIfAbsent` takes a value that has expired, not yet reclaimed, for one that lives, so an expired session's
    /// identifier can never be claimed again. Killed by "setIfAbsent stores where nothing is, keeps a value that has
    /// not expired, and replaces one that has".
    case storeIfAbsentKeepsAnExpiredValue

    var description: String { rawValue }
}
