internal import ForgeCore

/// Keys of 300, 1,000 and 4,000 repeated characters and of 3,000 and 10,000 varied ones, in pairs that differ only in
/// their last character: a store that truncates keys past some length, or shortens them without telling them apart,
/// stores each pair as one key.
let longHostileKeys: [String] =
    [300, 1_000, 4_000]
    .flatMap { length in
        let stem = String(repeating: "k", count: length - 1)
        return [stem + "1", stem + "2"]
    }
    + [3_000, 10_000]
    .flatMap { length in
        // Letters that do not repeat in any pattern a compressor finds: a store that indexes the key itself (a
        // database's B-tree, whose entries hold a few kilobytes) fails here where repeated letters compress away.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(length)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")  // 64: one per 6 bits
        let stem = String(
            (0..<(length - 1))
                .map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return letters[Int(state >> 58)]
                }
        )
        return [stem + "1", stem + "2"]
    }

/// The hostile keys the ``KVStoringConformance`` checks store: the shared ones and the long pairs.
let kvHostileKeys: [String] = hostileKeys + longHostileKeys

/// The hostile keys and a key given in NFD (which is listed in NFC): what the checks of `keys()` and of `removeAll`
/// store, so that a store which lists, or clears, only keys it finds tame fails them.
let kvHostileSpellings: [String] = kvHostileKeys + ["e\u{301}clair"]

/// A model of reference type, as an app's model objects often are: a `final class` whose state a caller changes
/// after it stores it or reads it.
///
/// Its state is behind a lock, so it is `Sendable` as the compiler checks it (no `@unchecked`); it encodes as
/// `{"completed": n}`.
final class TaskProgress: Codable, Sendable {
    private enum CodingKeys: String, CodingKey {
        case completed
    }

    /// The number of tasks completed, read and written under the lock.
    private let state: LockedState<Int>

    /// The number of tasks completed; a change shows in every reference to this instance.
    var completed: Int {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    init(completed: Int) {
        self.state = LockedState(completed)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.state = LockedState(try container.decode(Int.self, forKey: .completed))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(completed, forKey: .completed)
    }
}

/// A value that holds a ``TaskProgress`` behind a mirror of its own, which shows nothing inside: a store that looks
/// for class instances with `Mirror` does not see this one.
struct ProgressBox: Codable, Sendable, CustomReflectable {
    /// The instance inside.
    let progress: TaskProgress

    /// A mirror with no children.
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
