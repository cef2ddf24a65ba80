/// A realistic way to break a store that keeps lifetimes, switched on in ``ExpiringReferenceStore``, and the check of
/// `ExpiryConformance` that kills it.
enum ExpiryMutant: String, CaseIterable, CustomStringConvertible, Sendable {
    /// `removeAll` clears the values but not the index of expiry dates, so the next reclaim spends its limit on values
    /// that are gone. Killed by "removeAll forgets the lifetimes it removed: a reclaim spends its limit on values still
    /// stored".
    case removeAllKeepsTheExpiryIndex

    var description: String { rawValue }
}
