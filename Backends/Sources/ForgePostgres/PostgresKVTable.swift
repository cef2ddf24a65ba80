internal import Foundation
internal import PostgresNIO

/// The SQL of a ``PostgresKVStore``'s table: its name, the statement that creates it with its trigger, and the
/// notification payload that trigger sends.
///
/// The table holds one row per key of each namespace, found by `row_hash`, the SHA-256 of the namespace and the key
/// (set by a trigger, so rows other SQL writes get it too): an index entry of PostgreSQL's B-tree holds at most 2,704
/// bytes, so the key itself, which may be any string, cannot be the primary key. A hash index on `namespace` serves
/// `removeAll()` and `keys()`, whatever the namespace's length. `value` is `json`, not `jsonb`: `json` keeps the text the
/// library's encoder wrote, so a value reads back exactly as from the other stores, and it accepts every string the
/// encoder can write, where `jsonb` refuses a string holding NUL (`\u0000`).
///
/// `expires_at` holds when a value with a lifetime expires, in whole milliseconds since 1970 (null: never). A partial
/// index of the values that have one, on the MD5 of the namespace (which fits a B-tree entry whatever the
/// namespace's length) and `expires_at`, finds a namespace's expired values for a reclaim. A table an older version
/// made gets both when a store prepares it.
struct PostgresKVTable: StoreTable {
    /// The table's name, checked by ``validationFailure``.
    let name: String

    /// How many unicode scalars of the namespace and of the key a notification carries.
    ///
    /// Two keys that share this
    /// prefix share a payload, which costs a stream only a read that finds nothing new; the limit keeps a payload
    /// within PostgreSQL's 8000 bytes whatever the key.
    static let payloadPrefixLength = 900

    /// The channel every write to the table notifies: the table's name.
    var channel: String { name }

    /// One statement that creates the table, its notify function and its trigger when missing, under a
    /// transaction-scoped advisory lock, so that stores preparing at once in several processes do not race on the
    /// catalog.
    ///
    /// Only valid when ``validationFailure`` is nil: the name is written into the SQL as it is, quoted, so that a name
    /// SQL reserves (`user`, `order`) is a table name like any other.
    var createStatement: PostgresQuery {
        let prefix = Self.payloadPrefixLength
        let sql = """
            DO $forge$
            BEGIN
                PERFORM pg_advisory_xact_lock(hashtext('forge_kv_table:\(name)'));
                CREATE TABLE IF NOT EXISTS "\(name)" (
                    row_hash bytea PRIMARY KEY,
                    namespace text NOT NULL,
                    key text NOT NULL,
                    value json NOT NULL,
                    version bigint NOT NULL DEFAULT 1,
                    expires_at bigint
                );
                CREATE INDEX IF NOT EXISTS "\(name)_namespace" ON "\(name)" USING hash (namespace);
                -- A table made before lifetimes were kept gets them; its rows never expire.
                ALTER TABLE "\(name)" ADD COLUMN IF NOT EXISTS expires_at bigint;
                CREATE INDEX IF NOT EXISTS "\(name)_expiry" ON "\(name)" (md5(namespace), expires_at)
                    WHERE expires_at IS NOT NULL;
                -- The stored forms hold no NUL (the store escapes it), so a NUL between them tells every pair apart.
                CREATE OR REPLACE FUNCTION "\(name)_row_hash"(namespace text, key text) RETURNS bytea
                    LANGUAGE sql STABLE AS $rowhash$
                    SELECT sha256(convert_to(namespace, 'UTF8') || '\\x00'::bytea || convert_to(key, 'UTF8'))
                    $rowhash$;
                CREATE OR REPLACE FUNCTION "\(name)_hash"() RETURNS trigger LANGUAGE plpgsql AS $hash$
                BEGIN
                    NEW.row_hash := "\(name)_row_hash"(NEW.namespace, NEW.key);
                    RETURN NEW;
                END
                $hash$;
                IF NOT EXISTS (
                    SELECT 1 FROM pg_trigger
                    WHERE tgname = '\(name)_hash' AND tgrelid = '"\(name)"'::regclass
                ) THEN
                    CREATE TRIGGER "\(name)_hash" BEFORE INSERT OR UPDATE ON "\(name)"
                        FOR EACH ROW EXECUTE FUNCTION "\(name)_hash"();
                END IF;
                CREATE OR REPLACE FUNCTION "\(name)_notify"() RETURNS trigger LANGUAGE plpgsql AS $notify$
                DECLARE
                    changed record;
                BEGIN
                    IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                    PERFORM pg_notify(
                        '\(channel)', left(changed.namespace, \(prefix)) || E'\\n' || left(changed.key, \(prefix)));
                    RETURN NULL;
                END
                $notify$;
                IF NOT EXISTS (
                    SELECT 1 FROM pg_trigger
                    WHERE tgname = '\(name)_notify' AND tgrelid = '"\(name)"'::regclass
                ) THEN
                    CREATE TRIGGER "\(name)_notify" AFTER INSERT OR UPDATE OR DELETE ON "\(name)"
                        FOR EACH ROW EXECUTE FUNCTION "\(name)_notify"();
                END IF;
            END
            $forge$
            """
        return PostgresQuery(unsafeSQL: sql)
    }

    /// A query of one Boolean: whether the table, its indexes and both its triggers exist, so nothing is to be made.
    ///
    /// The expiry index is made with the `expires_at` column, so a table without it (made by an older version) is
    /// upgraded.
    var readinessQuery: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                SELECT to_regclass('"\(name)"') IS NOT NULL
                    AND to_regclass('"\(name)_namespace"') IS NOT NULL
                    AND to_regclass('"\(name)_expiry"') IS NOT NULL
                    AND (SELECT count(*) FROM pg_trigger
                         WHERE tgrelid = to_regclass('"\(name)"')
                           AND tgname IN ('\(name)_hash', '\(name)_notify')) = 2
                """
        )
    }

    /// The payload the trigger sends for a change of `key` in `namespace` (both in canonical form).
    static func payload(namespace: String, key: String) -> String {
        prefix(namespace) + "\n" + prefix(key)
    }

    /// The first ``payloadPrefixLength`` unicode scalars of `text`, as PostgreSQL's `left` counts characters.
    private static func prefix(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(payloadPrefixLength))
        return String(scalars)
    }
}
