import ForgeCrypt
import Foundation

/// The reference store seen as named secrets, so that what a tool counts (`itemCount()`) is checked too; its typed API
/// stays its own.
extension CryptReferenceStore: CryptBackend {
    func storedSecret(named name: String) throws -> Data? {
        backing.namespaces.withLock { $0[namespace]?[name] }
    }

    func store(_ secret: Data, named name: String) throws {
        backing.namespaces.withLock { $0[namespace, default: [:]][name] = secret }
    }

    func removeSecret(named name: String) throws {
        _ = backing.namespaces.withLock { $0[namespace]?.removeValue(forKey: name) }
    }

    func storedNames() throws -> [String] {
        backing.namespaces.withLock { Array($0[namespace, default: [:]].keys) }
    }

    func removeAll() throws {
        try deleteAll()
    }

    func itemCount() throws -> Int {
        backing.namespaces.withLock { namespaces in
            mutant == .countsNeighbours
                ? namespaces.values.reduce(0) { $0 + $1.count } : namespaces[namespace, default: [:]].count
        }
    }
}
