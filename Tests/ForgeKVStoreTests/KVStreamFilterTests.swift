import ForgeKVStore
import Testing

/// `KVStreamFilter`: a stream skips a value only when it is stored identically to the last one it emitted.
struct KVStreamFilterTests {
    /// A value whose `==` ignores its note.
    struct Labelled: Codable, Sendable, Equatable {
        let id: Int
        let note: String

        static func == (lhs: Labelled, rhs: Labelled) -> Bool { lhs.id == rhs.id }
    }

    @Test func theFirstValueIsAdmittedEvenNil() {
        var filter = KVStreamFilter<Int>()
        let admitted = [nil, nil, 1, 1, nil].map { filter.admits($0) }
        #expect(admitted == [true, false, true, false, true])
    }

    @Test func aValueEqualButStoredAsOtherJSONIsAdmitted() {
        var zeros = KVStreamFilter<Double>()
        #expect([0.0, 0.0, -0.0, -0.0].map { zeros.admits($0) } == [true, false, true, false])

        var labelled = KVStreamFilter<Labelled>()
        let notes = ["a", "b", "b"].map { labelled.admits(Labelled(id: 1, note: $0)) }
        #expect(notes == [true, true, false])
    }

    @Test func storedIdenticallyMeansEqualAndTheSameJSON() {
        #expect(KVStreamFilter<Double>.isStoredIdentically(nil, nil))
        #expect(!KVStreamFilter<Double>.isStoredIdentically(nil, 0))
        #expect(!KVStreamFilter<Double>.isStoredIdentically(0.0, -0.0))
        #expect(KVStreamFilter<Double>.isStoredIdentically(1.5, 1.5))
    }
}
