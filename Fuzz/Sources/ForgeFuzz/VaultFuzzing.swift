@testable import ForgeCrypt
import Foundation

/// The vault's header and sealed items, read back as the vault reads them.
enum VaultFuzzing {
    static let masterKey = MasterKey.symmetric(SymmetricKey(data: [UInt8](repeating: 0x42, count: 32)))
    static let location = "/fuzz/secrets"
    /// A vault's sealer, made once: the items are opened with it.
    static let sealer: SecretSealer = {
        do {
            return try SecretSealer(newHeaderFor: masterKey, location: location)
        } catch {
            fatalError("vault: could not make a sealer: \(error)")
        }
    }()

    /// The header file's bytes: decoded, then opened with the master key.
    static func header(_ data: Data) {
        do {
            _ = try SecretSealer.decode(data, location: location, headerName: "the header")
        } catch {
            // Typed: the sealer throws `CryptStoreError` only.
        }
        do {
            _ = try SecretSealer(masterKey: masterKey, header: data, location: location)
        } catch {
            // Typed: the sealer throws `CryptStoreError` only.
        }
    }

    /// An item file's bytes: opened as the secret of a key, and listed.
    static func item(_ data: Data) {
        do {
            _ = try sealer.open(data, as: String.self, for: "api-token")
        } catch {
            // Typed: the sealer throws `CryptStoreError` only.
        }
        do {
            _ = try sealer.key(inSealedItem: data, named: sealer.itemName(for: "api-token"))
        } catch {
            // Typed: the sealer throws `CryptStoreError` only.
        }
    }
}
