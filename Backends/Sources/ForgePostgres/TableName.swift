/// The rule for the name of a store's table: a plain identifier, written into SQL quoted, so that a name SQL
/// reserves (`user`, `order`) is a table name like any other and nothing else can reach the SQL.
enum TableName {
    /// The longest table name: room is kept for the suffixes of the objects named after the table (`_notify`,
    /// `_chunks`, `_row_hash`) within PostgreSQL's 63 bytes.
    static let maximumLength = 50

    /// Why `name` cannot name a table, or nil when it can: a plain identifier of lowercase ASCII letters, digits and
    /// underscores, not starting with a digit, at most ``maximumLength`` long.
    static func validationFailure(of name: String) -> String? {
        let scalars = name.unicodeScalars
        let isPlain =
            !scalars.isEmpty && scalars.count <= maximumLength
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(scalars[scalars.startIndex])
        if isPlain { return nil }
        return "the table name '\(name)' is not a plain identifier (a-z, 0-9 and _, not starting with a digit, "
            + "at most \(maximumLength) characters)"
    }

    /// `name` quoted for SQL.
    ///
    /// Only for names ``validationFailure(of:)`` accepts: they hold no quote.
    static func quoted(_ name: String) -> String {
        "\"\(name)\""
    }
}
