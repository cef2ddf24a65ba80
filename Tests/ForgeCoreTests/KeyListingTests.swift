@testable import ForgeCore
import Testing

/// The listing rule of `keys()`: canonical names, each once, in Swift's order, whether the store lists them in order
/// already (SQLite, by its primary key) or in any order.
struct KeyListingTests {
    @Test func namesListedInAnyOrderAreSortedAndMadeCanonicalOnce() {
        let decomposed = "cafe\u{301}"
        #expect(KeyListing.sorted(["b", decomposed, "a", "café", "b"]) == ["a", "b", "café"])
        #expect(KeyListing.sorted(["b", decomposed, "a", "café"]).last?.utf8.count == "café".utf8.count)
    }

    @Test func namesAlreadyInOrderAreKeptAndOnesThatOnlyLookSortedAreNot() {
        #expect(KeyListing.sorted(["a", "b", "café", "z\u{0}"]) == ["a", "b", "café", "z\u{0}"])
        #expect(KeyListing.sorted([]) == [])
        // In order, but the last is not canonical: it is made so.
        let listed = KeyListing.sorted(["a", "e\u{301}"])
        #expect(listed.map { Array($0.utf8) } == [Array("a".utf8), Array("é".utf8)])
        // In order but repeated: listed once.
        #expect(KeyListing.sorted(["a", "a", "b"]) == ["a", "b"])
    }

    @Test func theByteOrderOfCanonicalNamesIsSwiftsOrder() {
        let names = ["Z", "a", "é", "z", "ß", "日本", "😀", "a\u{0}b", "ab", "Å", "ﬁ"]
            .map(FileNameEncoding.canonicalForm(of:))
        let byBytes = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(byBytes == names.sorted())
    }
}
