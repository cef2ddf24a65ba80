/// One call a store seen through the seam makes to the store it wraps: what it does and on what, and what an
/// interceptor needs of it (the bytes it moves, what a damaging or hiding fault makes of its answer).
///
/// Each kind's wrapper describes its calls with these, so events, faults and the operation log meet every call of
/// every store, in either form, through one ``StoreCallInterceptor``.
package struct StoreCall<Result> {
    /// What the call does.
    package let operation: StoreOperation
    /// The key or path it is for; nil for the whole store.
    package let target: String?
    /// The bytes it writes, when it writes.
    package let bytesWritten: Int?
    /// The bytes of what it returned, when it reads.
    package let bytesRead: (Result) -> Int?
    /// What a read answers when a fault damaged what it read; nil for a call no fault damages.
    package let whenDamaged: ((Result) throws -> Result)?
    /// What an existence check answers when a fault hides its target; nil for a call no fault hides.
    package let whenHidden: Result?

    /// The call `operation` on `target`, writing `bytesWritten`, its answer measured by `bytesRead`, damaged by a
    /// fault as `whenDamaged` says, and answering `whenHidden` when a fault hides its target.
    @inlinable
    package init(
        _ operation: StoreOperation,
        _ target: String?,
        writing bytesWritten: Int? = nil,
        reading bytesRead: @escaping (Result) -> Int? = { _ in nil },
        whenDamaged: ((Result) throws -> Result)? = nil,
        whenHidden: Result? = nil
    ) {
        self.operation = operation
        self.target = target
        self.bytesWritten = bytesWritten
        self.bytesRead = bytesRead
        self.whenDamaged = whenDamaged
        self.whenHidden = whenHidden
    }
}

extension StoreCall {
    /// A write of `bytes` to `target`.
    package static func write(_ target: String?, bytes: Int?) -> Self { StoreCall(.write, target, writing: bytes) }

    /// A removal of `target`.
    package static func delete(_ target: String?) -> Self { StoreCall(.delete, target) }

    /// A removal of everything the store holds.
    package static var deleteAll: Self { StoreCall(.deleteAll, nil) }

    /// A listing of `target` (nil: of the whole store).
    package static func list(_ target: String?) -> Self { StoreCall(.list, target) }

    /// A reclaim of expired values.
    package static var reclaimExpired: Self { StoreCall(.reclaimExpired, nil) }
    /// A change of a secret store's master key.
    package static var rotateMasterKey: Self { StoreCall(.rotateMasterKey, nil) }
}

extension StoreCall where Result == Bool {
    /// A check that `target` exists; false when a fault hides it.
    package static func exists(_ target: String?) -> Self { StoreCall(.exists, target, whenHidden: false) }
}
