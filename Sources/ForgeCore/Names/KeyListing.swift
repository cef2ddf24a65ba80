/// The listing rule of every key-value and secret store: the names a store holds, each once, in its canonical (NFC)
/// form, sorted as Swift sorts strings.
package enum KeyListing {
    /// `names`, as a store's `keys()` returns them: canonical, without repeats, sorted.
    package static func sorted(_ names: [String]) -> [String] {
        Array(Set(names.map(FileNameEncoding.canonicalForm(of:)))).sorted()
    }

    /// How many keys `names` hold, as ``sorted(_:)`` lists them: each once, whatever its spelling.
    package static func count(_ names: [String]) -> Int {
        Set(names.map(FileNameEncoding.canonicalForm(of:))).count
    }
}
