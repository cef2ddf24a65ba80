/// A small deterministic random generator (SplitMix64), so generated test cases are the same on every run.
///
/// ```swift
/// var generator = SeededGenerator(seed: 0x5EED)
/// let length = Int.random(in: 0...12, using: &generator)
/// ```
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

extension SeededGenerator {
    /// Random bytes, as many as a random number in `count`: garbage to write over a stored file.
    package mutating func bytes(_ count: ClosedRange<Int>) -> [UInt8] {
        let length = Int.random(in: count, using: &self)
        return (0..<length).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
