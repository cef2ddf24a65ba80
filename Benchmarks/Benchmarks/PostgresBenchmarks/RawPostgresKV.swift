import BenchmarkSupport
import Foundation
import Logging
import PostgresNIO

/// The limit of `PostgresKVStore`: the statements the store sends for one key of the default table (`forge_kv`),
/// sent raw through postgres-nio on a connection leased from the same client, with the library's JSON settings.
///
/// The SQL is the store's, character for character (PostgresKVStore.swift): its read fetches the key's row by
/// `row_hash` among the hashes of its stored names (here the key alone, as a key without migrations has), and its
/// write is one upsert. The namespace and the key are plain ASCII, which the store stores as they are.
struct RawPostgresKV: Sendable {
    /// The client the connections are leased from.
    let client: PostgresClient
    /// The namespace of the row.
    let namespace: String
    /// The key of the row.
    let key: String

    /// No logging, as the store's statements.
    private static let logger = Logger(label: "RawPostgresKV", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The channel the table's trigger notifies: the table's name.
    static let channel = "forge_kv"

    /// The payload the trigger sends for a write of the row: the namespace and the key, on two lines.
    var payload: String { namespace + "\n" + key }

    /// Reads and decodes the key's value on a leased connection.
    func get() async throws -> Profile? {
        try await client.withConnection { connection in try await read(on: connection) }
    }

    /// Reads and decodes the key's value on `connection`.
    func read(on connection: PostgresConnection) async throws -> Profile? {
        let names = [key]
        let query: PostgresQuery = """
            SELECT key, value::text FROM "forge_kv" WHERE row_hash = ANY(ARRAY(
                SELECT "forge_kv_row_hash"(\(namespace), name) FROM unnest(\(names)::text[]) AS name
            ))
            """
        var profile: Profile?
        for try await (_, text) in try await connection.query(query, logger: Self.logger).decode((String, String).self)
        {
            profile = try Codec.decoder.decode(Profile.self, from: Data(text.utf8))
        }
        return profile
    }

    /// Encodes `value` and upserts the key's row on a leased connection.
    func set(_ value: Profile) async throws {
        let json = String(decoding: try Codec.encoder.encode(value), as: UTF8.self)
        try await client.withConnection { connection in
            let query: PostgresQuery = """
                INSERT INTO "forge_kv" AS stored (namespace, key, value) \
                VALUES (\(namespace), \(key), \(json)::json) \
                ON CONFLICT (row_hash) DO UPDATE SET value = excluded.value, version = stored.version + 1
                """
            _ = try await connection.query(query, logger: Self.logger)
        }
    }

    /// The key's value now, then after each notification of its row: `LISTEN` on a leased connection, and for each
    /// notification whose payload is the row's, the read of ``get()``; it ends when released or its consumer is
    /// cancelled.
    ///
    /// The first value is read once the server listens, so a write after it is notified.
    func stream() -> AsyncStream<Profile?> {
        let (values, output) = AsyncStream<Profile?>.makeStream()
        let listener = Task { [self] in
            // A failure ends the stream, so that a benchmark awaiting it fails instead of waiting.
            defer { output.finish() }
            try await client.withConnection { connection in
                try await connection.listen(on: Self.channel) { notifications in
                    output.yield(try await get())
                    for try await notification in notifications where notification.payload == payload {
                        output.yield(try await get())
                    }
                }
            }
        }
        output.onTermination = { _ in listener.cancel() }
        return values
    }
}
