import ForgeStorage
import Foundation

/// A data folder and the namespaces in it.
///
/// Layout of the demo's folder: `settings/` (a `DiskKVStore`), `files/` (a `DiskFileStore`), `secrets/`
/// (an `EncryptedFileCrypt` vault) and `master.key` (the vault's key file). Any other data folder whose
/// sub-folders are store namespaces can be inspected the same way.
struct DataRoot {
    /// The demo's namespaces and key file.
    static let settingsNamespace = "settings"
    static let filesNamespace = "files"
    static let secretsNamespace = "secrets"
    static let keyFileName = "master.key"

    let url: URL

    var directory: StorageDirectory { .custom(url) }
    var path: String { url.path }
    var defaultKeyFile: URL { url.appendingPathComponent(Self.keyFileName, isDirectory: false) }

    /// The folder of `namespace`: every store escapes its namespace the same way.
    func folderPath(of namespace: String) -> String {
        DiskKVStore(directory: directory, namespace: namespace).folderURL.path
    }

    /// The namespaces of the stores in the folder, sorted: every sub-folder whose name a namespace makes.
    func namespaces() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path)
            .filter { name in
                var isFolder: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(
                        atPath: url.appendingPathComponent(name).path,
                        isDirectory: &isFolder
                    )
                    && isFolder.boolValue
            }
            .compactMap { DiskKVStore.namespace(forFolderNamed: $0) }
            .sorted()
    }

    /// The names of the files directly in the folder, beside the namespaces (such as the demo's key file).
    func looseFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return
            names.filter { name in
                var isFolder: ObjCBool = false
                return !name.hasPrefix(".")
                    && FileManager.default.fileExists(
                        atPath: url.appendingPathComponent(name).path,
                        isDirectory: &isFolder
                    )
                    && !isFolder.boolValue
            }
            .sorted()
    }

    /// The namespace's kind.
    ///
    /// - Throws: ``ForgeError/unknownNamespace(_:root:known:)`` when the folder holds no such namespace, or
    ///   `KVStoreError.listFailed` when its folder cannot be listed.
    func kind(of namespace: String) throws -> StoreKind {
        let known = try namespaces()
        guard known.contains(namespace) else {
            throw ForgeError.unknownNamespace(namespace, root: path, known: known)
        }
        if EncryptedFileCrypt.vaultExists(directory: directory, namespace: namespace) { return .vault }
        let store = DiskKVStore(directory: directory, namespace: namespace)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: store.folderURL.path)) ?? []
        let visible = entries.filter { !$0.hasPrefix(".") }
        if visible.isEmpty { return .empty }
        // A key-value store holds nothing but the files of its keys.
        return try store.keys().count == visible.count ? .keyValue : .files
    }

    /// The namespace's kind, which must be `expected` (an empty folder passes as any kind).
    ///
    /// - Throws: ``ForgeError/unknownNamespace(_:root:known:)`` or ``ForgeError/wrongKind(namespace:kind:expected:)``.
    func require(_ expected: StoreKind, namespace: String) throws {
        let kind = try kind(of: namespace)
        guard kind == expected || kind == .empty else {
            throw ForgeError.wrongKind(namespace: namespace, kind: kind, expected: expected)
        }
    }
}
