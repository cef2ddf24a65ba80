import Testing

/// A realistic way to get a secret store wrong, each a few lines switched on in ``CryptReferenceStore``.
///
/// `CryptStoringConformance` must catch every one (see `CryptMutationTests`).
enum CryptMutant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    // Races, modelled as locked steps that do not make one atomic call (so ThreadSanitizer stays quiet).
    /// `set` copies the namespace's items, changes the copy and writes it back: concurrent sets are lost.
    case losesConcurrentSets
    /// `set` removes the old secret, then writes the new one: a reader in between sees none.
    case removesBeforeWriting
    /// `set` writes the first half of the secret, then the whole: a reader in between sees half.
    case writesInTwoParts

    // Neighbours on the same backing.
    /// `deleteAll` clears every namespace of the backing.
    case deleteAllClearsNeighbours
    /// `delete` removes the key from every namespace.
    case deleteReachesNeighbours
    /// `itemCount()` counts the secrets of every namespace of the backing, as a store counting rows without its
    /// namespace's condition.
    case countsNeighbours
    /// `get` falls back to another namespace's secret when this one has none.
    case readsNeighbours

    // Key names rewritten, so distinct names collide.
    /// "/" becomes "_".
    case replacesSlashes
    /// Characters outside ASCII are dropped.
    case dropsNonASCII
    /// Control characters are dropped.
    case dropsControlCharacters
    /// Names are lowercased.
    case foldsCase
    /// Leading and trailing spaces are trimmed.
    case trimsSpaces
    /// Names are in NFKC, not NFC: "ﬁ" is "fi".
    case foldsCompatibilityForms
    /// Names are cut to 255 characters.
    case truncatesLongNames

    // Handles.
    /// A handle keeps what it read, and another handle's sets and deletes do not reach it.
    case cachesReads

    // keys().
    /// keys() lists in the backing's hash order.
    case listsUnsorted
    /// keys() lists every name set since the last deleteAll, deleted ones too.
    case listsDeletedKeys
    /// keys() lists names as they were given, not in NFC.
    case listsAsGiven
    /// keys() leaves out names with "/", control characters, or no characters.
    case listsOnlyPlainNames
    /// keys() leaves out names starting with ".".
    case listsNoHiddenNames

    // Calls.
    /// contains is true whenever the store holds anything.
    case containsLies
    /// delete throws when nothing is stored.
    case deleteOfMissingThrows
    /// A secret that does not decode as the type asked for reads as nil.
    case wrongTypeReadsAsNil
    /// A value that cannot be encoded is not stored, and nothing is thrown.
    case swallowsEncodingErrors
    /// deleteAll leaves names starting with ".".
    case deleteAllLeavesHiddenNames
    /// deleteAll removes only the names made of ASCII letters, digits, ".", "_" and "-", and leaves the others.
    case deleteAllRemovesOnlyPlainNames

    var testDescription: String { rawValue }

    /// Whether the mutant is a race, which the concurrency checks catch only when it happens.
    var isRace: Bool {
        [.losesConcurrentSets, .removesBeforeWriting, .writesInTwoParts].contains(self)
    }
}
