#if DEBUG
import ForgeCore
import ForgeKVStore
import Foundation

/// The `DiskKVStore` operations the sweep fails: set, set with a lifetime, a claim (`setIfAbsent`) of an expired key,
/// remove, `removeAll`, and a reclaim of expired values.
enum KeyValueOperations {
    static let namespace = "settings"
    static let target = KVKey<String>("theme")
    static let others = [KVKey<String>("language"), KVKey<String>("accent")]
    static let next = KVKey<String>("next")
    static let expired = KVKey<String>("expired-1")

    static var all: [SweptOperation] {
        [
            operation("kv.set", subject: target.key) { store in try store.set(target, value: "dark, all day long") },
            operation("kv.set.flushed", subject: target.key, durability: .flushed) { store in
                try store.set(target, value: "dark, flushed")
            },
            operation("kv.set.lifetime", subject: target.key) { store in
                try store.set(target, value: "dark for an hour", expiresAfter: .seconds(3600))
            },
            // A claim of a key whose value expired: read and replaced under the folder's exclusive lock.
            operation("kv.setIfAbsent", subject: expired.key, expiring: true) { store in
                guard try store.setIfAbsent(expired, value: "claimed", lifetime: .after(.seconds(60))) else {
                    throw SweepViolation("the expired value was taken for a live one")
                }
            },
            operation("kv.remove", subject: target.key) { store in try store.remove(target) },
            operation("kv.removeAll", subject: nil) { store in try store.removeAll() },
            operation("kv.reclaim", subject: nil, expiring: true) { store in
                _ = try store.reclaimExpiredValues(limit: 100)
            },
        ]
    }

    /// An operation, on a store of `durability`, on a folder holding the target and two other values (and, with `expiring`, two values that
    /// expired a minute ago and one that expires in an hour).
    private static func operation(
        _ name: String,
        subject: String?,
        durability: Durability = .atomic,
        expiring: Bool = false,
        _ run: @escaping @Sendable (DiskKVStore) throws -> Void
    ) -> SweptOperation {
        SweptOperation(
            name: name,
            subject: subject,
            advisoryFiles: [".forge-lifetimes"],
            seed: { folder in
                let store = store(in: folder)
                try store.set(target, value: "light")
                for key in others { try store.set(key, value: "value of \(key.key)") }
                if expiring {
                    try store.set(expired, value: "gone", expiresAfter: .seconds(60))
                    try store.set(KVKey<String>("expired-2"), value: "gone", expiresAfter: .seconds(60))
                    try store.set(KVKey<String>("later"), value: "kept", expiresAfter: .seconds(7200))
                }
            },
            open: { folder in
                // A reclaim runs an hour after the seed: two values have expired.
                let store = store(
                    in: folder,
                    at: expiring ? seedTime.addingTimeInterval(3600) : seedTime,
                    durability: durability
                )
                await StoreFolder.leftoverSweepsFinished()
                _ = try store.keys()
                return SweptOperation.OpenedStore(
                    run: { try run(store) },
                    contents: { try contents(of: store) },
                    next: {
                        try store.set(next, value: "after")
                        guard try store.value(for: next) == "after" else {
                            throw SweepViolation("the next set read back wrong")
                        }
                    }
                )
            }
        )
    }

    /// The store on `folder`, its clock stopped at `time`.
    private static func store(in folder: URL, at time: Date = seedTime, durability: Durability = .atomic) -> DiskKVStore
    {
        DiskKVStore(
            directory: .custom(folder),
            namespace: namespace,
            durability: durability,
            expiry: KVExpiry(clock: StoppedClock(now: time))
        )
    }

    /// When the seed writes: a fixed time, so that every run of an operation meets the same lifetimes.
    private static let seedTime = Date(timeIntervalSince1970: 1_800_000_000)

    /// A clock that does not move.
    private struct StoppedClock: ExpiryClock {
        let now: Date

        func sleep(until date: Date) async throws {
            guard date <= now else { throw CancellationError() }
        }
    }

    /// Every key the store lists, with its value's JSON.
    private static func contents(of store: DiskKVStore) throws -> [String: String] {
        var contents: [String: String] = [:]
        for key in try store.keys() {
            contents[key] = try store.value(for: KVKey<String>(key)) ?? "missing"
        }
        return contents
    }
}
#endif
