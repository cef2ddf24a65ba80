/// The names a store writes into its SQL as they are (a table's name): checked to be plain identifiers, and quoted.
enum PlainIdentifier {
    /// Why `name` cannot name a table, or nil when it can: a plain identifier of lowercase ASCII letters, digits and
    /// underscores, not starting with a digit, at most `maximumLength` long.
    static func problem(of name: String, maximumLength: Int) -> String? {
        let scalars = name.unicodeScalars
        let isPlain =
            !scalars.isEmpty && scalars.count <= maximumLength
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(scalars[scalars.startIndex])
        if isPlain { return nil }
        return "the table name '\(name)' is not a plain identifier (a-z, 0-9 and _, not starting with a digit, "
            + "at most \(maximumLength) characters)"
    }

    /// `name` quoted for SQL, so that a name SQL reserves (`user`, `order`) is a name like any other.
    ///
    /// Only for names ``problem(of:maximumLength:)`` accepts: they hold no quote.
    static func quoted(_ name: String) -> String {
        "\"\(name)\""
    }
}
