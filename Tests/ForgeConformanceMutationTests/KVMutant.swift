import Testing

/// A realistic way to break a ``ReferenceKVStore``: each is a few lines switched on in the reference, and some check of
/// `KVStoringConformance` must catch it.
enum KVMutant: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// No lock around a write: `set` copies the namespace's table, changes the copy and writes it back, so writes made
    /// meanwhile by other threads are lost.
    case losesConcurrentUpdates
    /// `set` removes the old value, then encodes and stores the new one, in two steps (as a store that deletes the old
    /// file before it writes the new one): a reader between them finds nothing.
    case writesInTwoSteps
    /// `removeAll` clears the whole backing: every namespace, not only its own.
    case removeAllClearsNeighbours
    /// A read that finds nothing in the store's namespace looks in the other namespaces of the backing.
    case readsNeighbours
    /// `removeAll` leaves keys that start with ".", as a store that lists a folder without its dot-files.
    case removeAllSkipsHiddenKeys
    /// `removeAll` removes only the keys made of ASCII letters, digits, `.`, `_` and `-`, as a store that lists its
    /// folder and decodes only the file names it did not have to escape: a key with a space, a `/`, a `:`, a NUL or
    /// a letter outside ASCII outlives it.
    case removeAllRemovesOnlyPlainKeys
    /// Keys are cut to their first 255 characters: long keys that differ only at the end are one key.
    case truncatesLongKeys
    /// A value per key name and type: `KVKey<Int>("x")` and `KVKey<String>("x")` are kept apart, reads prefer the
    /// value of their own type and `remove` removes only that one.
    case keepsAValuePerType
    /// A handle caches what it read, and so misses what other handles wrote or removed since.
    case cachesReads
    /// `value(for:)` reads a value that does not decode as nil instead of throwing `decodingFailed`.
    case readsUndecodableValuesAsNil
    /// A stored nil optional reads as nothing stored.
    case readsStoredNilAsMissing
    /// A value is only read by the type that wrote it: an `Int` does not read as a `Double`.
    case readsOnlyTheWrittenType
    /// `keys()` lists the keys in the table's own order.
    case listsKeysUnsorted
    /// `remove` leaves a marker that `keys()` lists.
    case listsRemovedKeys
    /// `keys()` lists a key as it was last spelled, not in its canonical (NFC) form.
    case listsKeysAsGiven
    /// Keys are compared byte by byte: a key in NFD and the same key in NFC are two keys.
    case comparesKeysBytewise
    /// A value read through a migration is written back under the key.
    case migrationWritesBackOnRead
    /// `remove` removes the key, and leaves the older names its migrations read.
    case removeLeavesOlderNames
    /// `contains` answers from an index of keys written, which `remove` does not update.
    case containsRemembersRemovedKeys
    /// A value that cannot be encoded is dropped without an error.
    case swallowsEncodingErrors
    /// A value that cannot be encoded removes the stored value before `set` throws, as a store that cleans up after
    /// a failed write.
    case encodingFailureLosesTheStoredValue
    /// `set` with a key that holds a value keeps the first value.
    case keepsTheFirstValue
    /// `set` keeps the value it was given beside its JSON, and a read with the type that wrote it returns that value
    /// without decoding (as a store that keeps values in memory to skip the decoder): a class instance the caller
    /// changes after the `set` reads back changed, and every read returns the caller's own instance.
    case returnsTheWrittenInstance
    /// A read keeps the value it decoded, and each later read with the same type returns that instance while the
    /// stored JSON is unchanged (as a store that caches decoded values): a change to a class instance one read
    /// returned shows in every other read.
    case sharesTheDecodedInstance

    var testDescription: String { rawValue }

    /// The mutants that only a race shows, which the concurrency checks catch in every run (see `RaceGate`).
    static let races: [KVMutant] = [.losesConcurrentUpdates, .writesInTwoSteps]
}
