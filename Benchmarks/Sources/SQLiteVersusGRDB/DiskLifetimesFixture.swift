import ForgeKVStore
import Foundation

/// DiskKVStore folders of 1,000, 10,000 and 50,000 keys, and the pairs that time what a lifetime costs in them.
///
/// For each size: a folder whose values have no lifetime (the base of every ratio: no index of lifetimes), a folder
/// whose one more value has a lifetime of an hour (the index names it), the same with its index damaged, which
/// readers never trust: every file is then read, as every folder with a lifetime was before the index (the slow path,
/// timed beside the fast one), and a folder whose every value has a lifetime of an hour (an index of as many lines). A reclaim's 16 expired values are written before each reclaim, untimed, through the
/// store's backend (the typed API would reclaim a value already past at once).
@MainActor
final class DiskLifetimesFixture {
    /// The sizes of the folders.
    static let sizes = [1_000, 10_000, 50_000]
    /// How many expired values a reclaim finds and removes: `KVExpiry`'s default limit.
    static let expiredCount = 16

    /// The stores of one size's folders.
    private struct Folders {
        let size: Int
        /// No lifetime; one lifetime; one lifetime with a damaged index; every value with a lifetime.
        let plain, indexed, damaged, everyValue: DiskKVStore
    }

    /// The folders, by size, smallest first.
    private var folders: [Folders] = []

    /// Writes every folder in `folder`.
    init(folder: URL) throws {
        for size in Self.sizes {
            func store(_ name: String) -> DiskKVStore {
                DiskKVStore(directory: .custom(folder.appendingPathComponent("\(name)-\(size)")), namespace: "bench")
            }
            let stores = Folders(
                size: size,
                plain: store("plain"),
                indexed: store("indexed"),
                damaged: store("damaged"),
                everyValue: store("every-value")
            )
            for index in 0..<size {
                let key = KVKey<Int>(String(format: "key-%05d", index))
                for store in [stores.plain, stores.indexed, stores.damaged] { try store.set(key, value: index) }
                try stores.everyValue.set(key, value: index, expiresAfter: .seconds(3600))
            }
            let session = KVKey<String>("session")
            try stores.plain.set(session, value: "t0k3n")
            try stores.indexed.set(session, value: "t0k3n", expiresAfter: .seconds(3600))
            try stores.damaged.set(session, value: "t0k3n", expiresAfter: .seconds(3600))
            try Data("damaged\n".utf8).write(to: stores.damaged.folderURL.appendingPathComponent(".forge-lifetimes"))
            folders.append(stores)
        }
    }

    /// Whether a pair of this fixture's may start with `prefix`: every pair's operation starts with `DiskKVStore `.
    static func mayRun(prefix: String) -> Bool {
        prefix.hasPrefix(groupPrefix) || groupPrefix.hasPrefix(prefix)
    }

    /// How every pair's operation starts.
    private static let groupPrefix = "DiskKVStore "

    /// The pairs, in the order of the table.
    func pairs() -> [Pair] {
        folders.map(listingPair) + folders.filter { $0.size == 10_000 }.map(containsPair) + folders.map(reclaimPair)
            + reclaimAmongPairs
    }

    /// `keys()` of `stores`' folders.
    private func listingPair(_ stores: Folders) -> Pair {
        let size = stores.size
        func side(_ name: String, _ store: DiskKVStore) -> Side {
            Side(name: name) {
                let count = try store.keys().count
                guard count == size + 1 else { throw UnexpectedResult(what: "keys() of \(name): \(count)") }
            }
        }
        return Pair(
            group: "DiskKVStore keys() of \(size.formatted()), one lifetime",
            batch: max(1, 10_000 / size),
            rounds: size >= 50_000 ? 7 : 11,
            sides: [
                side("indexed", stores.indexed),
                side("index damaged: every file read", stores.damaged),
                side("no lifetime", stores.plain),
            ]
        )
    }

    /// `contains` of a key without a lifetime in `stores`' folders.
    private func containsPair(_ stores: Folders) -> Pair {
        let key = KVKey<Int>("key-00042")
        func side(_ name: String, _ store: DiskKVStore) -> Side {
            Side(name: name) {
                guard store.contains(key) else { throw UnexpectedResult(what: "contains of \(name)") }
            }
        }
        return Pair(
            group: "DiskKVStore contains among \(stores.size.formatted()), one lifetime",
            batch: 2_000,
            rounds: 11,
            sides: [
                side("indexed", stores.indexed),
                side("index damaged: the file read", stores.damaged),
                side("no lifetime", stores.plain),
            ]
        )
    }

    /// A reclaim that finds nothing expired in `stores`' folders.
    private func reclaimPair(_ stores: Folders) -> Pair {
        func side(_ name: String, _ store: DiskKVStore) -> Side {
            Side(name: name) {
                let removed = try store.removeExpiredValues(at: Date(), limit: Self.expiredCount)
                guard removed.isEmpty else { throw UnexpectedResult(what: "reclaim of \(name): \(removed.count)") }
            }
        }
        return Pair(
            group: "DiskKVStore reclaim of nothing among \(stores.size.formatted()), one lifetime",
            batch: 200,
            rounds: 11,
            sides: [side("indexed", stores.indexed), side("no lifetime", stores.plain)]
        )
    }

    /// A reclaim of 16 expired values among 50,000 keys, beside the same among 1,000: its cost follows the values that
    /// expired, not the folder's size.
    private var reclaimAmongPairs: [Pair] {
        guard let smallest = folders.first, let largest = folders.last else { return [] }
        func side(_ name: String, _ store: DiskKVStore) -> Side {
            Side(
                name: name,
                prepare: {
                    for index in 0..<Self.expiredCount {
                        try store.store(
                            KVStoredValue(json: Data("\(index)".utf8), expiresAtMilliseconds: 0),
                            named: "expired-\(index)"
                        )
                    }
                },
                {
                    let removed = try store.removeExpiredValues(at: Date(), limit: Self.expiredCount)
                    guard removed.count == Self.expiredCount else {
                        throw UnexpectedResult(what: "reclaim among \(name): \(removed.count)")
                    }
                }
            )
        }
        return [
            Pair(
                group: "DiskKVStore reclaim of \(Self.expiredCount) expired",
                batch: 20,
                rounds: 11,
                sides: [
                    side("among \(largest.size.formatted())", largest.indexed),
                    side("among \(smallest.size.formatted())", smallest.indexed),
                ]
            ),
            Pair(
                group: "DiskKVStore reclaim of \(Self.expiredCount) expired, every value with a lifetime",
                batch: 20,
                rounds: 11,
                sides: [
                    side("among \(largest.size.formatted())", largest.everyValue),
                    side("among \(smallest.size.formatted())", smallest.everyValue),
                ]
            ),
        ]
    }
}

/// A timed call that did not do what it is timed for: the run fails rather than time it.
struct UnexpectedResult: Error, CustomStringConvertible {
    let what: String
    var description: String { "unexpected result: \(what)" }
}
