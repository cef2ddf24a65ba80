/// Keys of 300, 1,000 and 4,000 characters, in pairs that differ only in their last character: a store that
/// truncates keys past some length, or shortens them without telling them apart, stores each pair as one key.
let longHostileKeys: [String] = [300, 1_000, 4_000]
    .flatMap { length in
        let stem = String(repeating: "k", count: length - 1)
        return [stem + "1", stem + "2"]
    }

/// The hostile keys the ``KVStoringConformance`` checks store: the shared ones and the long pairs.
let kvHostileKeys: [String] = hostileKeys + longHostileKeys
