@testable import ForgeKVStore
import Foundation

/// A `DiskKVStore` file planted with the input's bytes, read through the store as an app reads: typed values, the
/// listing, `contains`, a lifetime.
enum KeyValueFile {
    static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("forge-fuzz-kv-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    static let store = DiskKVStore(directory: .custom(folder), namespace: "settings")

    static func run(_ data: Data) {
        do {
            try store.set(KVKey<String>("theme"), value: "seed")
            let file = folder.appendingPathComponent("settings/theme.json")
            try data.write(to: file)
        } catch {
            fatalError("kv-file: could not plant the file: \(error)")
        }
        // The parsers alone, then the store's reads.
        if let contents = ExpiryHeader.read(data) {
            _ = try? KVStoredValue(json: contents.body, expiresAtMilliseconds: contents.expiresAtMilliseconds)
                .decode(Profile.self, name: "theme")
        }
        _ = DiskKVStore.envelopeKey(in: data)
        do {
            _ = try store.value(for: KVKey<Profile>("theme"))
        } catch is KVStoreError {} catch { untyped(error, .kvFile) }
        do {
            _ = try store.value(for: KVKey<String>("theme"))
            _ = try store.keys()
            _ = store.contains(KVKey<String>("theme"))
            _ = try store.expirationDate(of: KVKey<String>("theme"))
        } catch is KVStoreError {} catch { untyped(error, .kvFile) }
    }
}
