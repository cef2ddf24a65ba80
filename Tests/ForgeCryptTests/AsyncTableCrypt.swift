import ForgeCrypt
import Foundation

/// A secret store as a user writes one behind a network: ``AsyncCryptBackend``'s requirements and nothing else, each
/// answered by a ``TableCrypt`` (its "server").
///
/// It lets the tests run what the library writes once on ``AsyncCryptBackend`` (the default `itemCount()`) without a
/// database.
struct AsyncTableCrypt: AsyncCryptStoring, AsyncCryptBackend {
    let server: TableCrypt

    func storedSecret(named name: String) async throws -> Data? {
        server.storedSecret(named: name)
    }

    func store(_ secret: Data, named name: String) async throws {
        server.store(secret, named: name)
    }

    func removeSecret(named name: String) async throws {
        server.removeSecret(named: name)
    }

    func storedNames() async throws -> [String] {
        server.storedNames()
    }

    func removeAll() async throws {
        server.removeAll()
    }
}
