internal import PostgresNIO

/// The SQL of a ``PostgresCrypt``'s table: its name, and the statement that creates it.
///
/// The table holds, for each namespace, one row per secret and one header row:
/// `(namespace bytea, item text, sealed bytea, primary key (namespace, item))`. `namespace` is the SHA-256 of the
/// namespace's canonical (NFC) UTF-8, so any namespace, however long, fits the primary key's index. A secret's `item`
/// is the sealer's item name (the keyed hash of its key name, 64 hex digits) and `sealed` the sealed item; the
/// header row's `item` is ``headerItem`` and `sealed` the sealer's header. No column holds a key name or a secret.
struct PostgresCryptTable: StoreTable {
    /// The table's name, checked by ``validationFailure``.
    let name: String

    /// The `item` of a namespace's header row: not 64 hex digits, so never an item's name.
    static let headerItem = "header"

    /// The table's name quoted for SQL.
    var quoted: String { TableName.quoted(name) }

    /// One statement that creates the table when missing, under a transaction-scoped advisory lock, so that stores
    /// preparing at once in several processes do not race on the catalog.
    ///
    /// Only valid when ``validationFailure`` is nil: the name is written into the SQL as it is, quoted.
    var createStatement: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                DO $forge$
                BEGIN
                    PERFORM pg_advisory_xact_lock(hashtext('forge_crypt_table:\(name)'));
                    CREATE TABLE IF NOT EXISTS \(quoted) (
                        namespace bytea NOT NULL,
                        item text NOT NULL,
                        sealed bytea NOT NULL,
                        PRIMARY KEY (namespace, item)
                    );
                END
                $forge$
                """
        )
    }

    /// A query of one Boolean: whether the table exists, so nothing is to be made.
    var readinessQuery: PostgresQuery {
        PostgresQuery(unsafeSQL: "SELECT to_regclass('\(quoted)') IS NOT NULL")
    }
}
