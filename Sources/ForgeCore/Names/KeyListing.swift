/// The listing rule of every key-value and secret store: the names a store holds, each once, in its canonical (NFC)
/// form, sorted as Swift sorts strings.
package enum KeyListing {
    /// `names`, as a store's `keys()` returns them: canonical, without repeats, sorted.
    package static func sorted(_ names: [String]) -> [String] {
        // A store that lists its names canonical and in order (SQLite's, by its primary key) is passed as it is.
        if isListed(names) { return names }
        return Array(Set(names.map(FileNameEncoding.canonicalForm(of:)))).sorted()
    }

    /// Whether `names` is already as ``sorted(_:)`` returns it: each canonical, each before the next.
    private static func isListed(_ names: [String]) -> Bool {
        guard let first = names.first, FileNameEncoding.isCanonical(first) else { return names.isEmpty }
        var previous = first
        for name in names.dropFirst() {
            guard previous < name, FileNameEncoding.isCanonical(name) else { return false }
            previous = name
        }
        return true
    }

    /// How many keys `names` hold, as ``sorted(_:)`` lists them: each once, whatever its spelling.
    package static func count(_ names: [String]) -> Int {
        Set(names.map(FileNameEncoding.canonicalForm(of:))).count
    }
}
