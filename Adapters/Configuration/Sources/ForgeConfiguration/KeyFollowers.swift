internal import Synchronization

/// The tasks that follow store keys for a provider: one per key, however many holders want it followed, so the
/// snapshot takes each key's changes from one stream, in its order.
///
/// A holder (the provider's `run()`, a value watch, a snapshot watch) calls ``hold(_:)`` and later ``release(_:)``
/// once for each key; the first hold starts the key's task, the last release cancels it and hands it over, so that
/// the holder can await its end.
final class KeyFollowers: Sendable {
    /// A key's task and the number of its holders.
    private struct Follower {
        var holders: Int
        let task: Task<Void, Never>
    }

    /// The followers by store key.
    private let followers = Mutex<[String: Follower]>([:])

    /// Has `storeKey` followed, starting a task that runs `follow` when the key has no holder yet.
    func hold(_ storeKey: String, follow: @escaping @Sendable () async -> Void) {
        followers.withLock { followers in
            if followers[storeKey] != nil {
                followers[storeKey]?.holders += 1
            } else {
                followers[storeKey] = Follower(holders: 1, task: Task { await follow() })
            }
        }
    }

    /// Whether `storeKey` has a task following it: its stream then brings each of its changes to the snapshot, and a
    /// read that raced those changes must not.
    func isFollowing(_ storeKey: String) -> Bool {
        followers.withLock { $0[storeKey] != nil }
    }

    /// Gives up one hold of `storeKey`; the last one cancels the key's task and returns it.
    func release(_ storeKey: String) -> Task<Void, Never>? {
        followers.withLock { followers in
            guard var follower = followers[storeKey] else { return nil }
            follower.holders -= 1
            guard follower.holders == 0 else {
                followers[storeKey] = follower
                return nil
            }
            followers[storeKey] = nil
            follower.task.cancel()
            return follower.task
        }
    }

    /// Gives up one hold of each of `storeKeys`, and waits until the tasks that lost their last holder have ended.
    func release(_ storeKeys: some Sequence<String>) async {
        let ended = storeKeys.compactMap { release($0) }
        for task in ended { await task.value }
    }
}
