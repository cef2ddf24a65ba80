extension StoreEvent {
    /// How a store's events name the keys and paths they are for: in the clear, replaced (by a keyed hash), or not at
    /// all.
    ///
    /// A key or path can be a secret: a server that keys sessions by their token would log the tokens with every
    /// event. Give `reportingEvents(label:keyNames:to:)` ``omitted``, or ForgeCrypt's `hashed` (HMAC-SHA256 under a
    /// key made at random for the process), and no event names one in the clear:
    ///
    /// ```swift
    /// let sessions = DiskKVStore(namespace: "sessions")
    ///     .reportingEvents(label: "sessions", keyNames: .hashed, to: observability.record)
    /// ```
    ///
    /// It applies to every place an event names a key or path: ``StoreEvent/target``, the ``DecodingFailure`` and
    /// ``Migration`` ``DecodingFailure/storedName``, and a ``Failure``, whose error (which names the key or path) is
    /// then withheld, as a secret store's is. A secret store's events name no key whatever the option.
    ///
    /// A hash is only as good as its key: a plain hash of a guessable name (a short token, a user's id) can be
    /// reversed by hashing guesses, so ``replaced(by:)`` should be given a keyed hash, never a checksum.
    public struct KeyNames: Sendable {
        /// What becomes of a name.
        private enum Form: Sendable {
            case clear
            case omitted
            case replaced(@Sendable (String) -> String)
        }

        private let form: Form

        /// Events name keys and paths as they are; the default.
        public static let clear = KeyNames(form: .clear)

        /// Events name no key or path: ``StoreEvent/target`` is nil, a stored name is empty, and
        /// ``StoreEvent/withholdsNames`` says that the call was for one all the same.
        public static let omitted = KeyNames(form: .omitted)

        /// Events name each key or path by what `replacement` makes of it, such as a keyed hash; a failure's error is
        /// withheld.
        ///
        /// - Parameter replacement: Turns a key or path into what the events show in its place: the same name into the
        ///   same text, so that the events of one key can be told together.
        /// - Returns: Key names shown as `replacement` makes them.
        public static func replaced(by replacement: @escaping @Sendable (String) -> String) -> KeyNames {
            KeyNames(form: .replaced(replacement))
        }

        /// Whether events show names as they are.
        package var isClear: Bool {
            if case .clear = form { return true }
            return false
        }

        /// Whether events show no name.
        package var isOmitted: Bool {
            if case .omitted = form { return true }
            return false
        }

        /// `name` as an event shows it: itself, its replacement, or nil.
        package func shown(_ name: String) -> String? {
            switch form {
            case .clear: name
            case .omitted: nil
            case .replaced(let replacement): replacement(name)
            }
        }
    }
}
