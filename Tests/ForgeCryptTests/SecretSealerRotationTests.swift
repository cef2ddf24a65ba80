import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The rotation a store on another medium follows with `SecretSealer`: each phase's header opens with the keys it
/// should, tells a store whether it may write, and reseals items; the old key is in the header only for the new key.
struct SecretSealerRotationTests {
    let location = "secrets table, namespace 'tests'"
    let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
    let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))

    /// A sealer of `oldKey` and two sealed items, by item name.
    private func sealed() throws -> (sealer: SecretSealer, items: [(key: String, name: String, item: Data)]) {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let items = try ["alpha", "beta"]
            .map { key in
                (
                    key, sealer.itemName(for: key),
                    try sealer.seal(Data("secret of \(key)".utf8), as: sealer.item(for: key))
                )
            }
        return (sealer, items)
    }

    @Test func eachPhasesHeaderOpensWithTheKeysItShould() throws {
        let (sealer, items) = try sealed()
        let rotation = try #require(try sealer.rotation(to: newKey, location: location))
        #expect(rotation.phase == .starting)
        #expect(rotation.recordedItemCount == nil)

        // Resealing: both keys open it; the new key's sealer reads the old items through the old key it opens.
        let resealing = try rotation.resealingHeader(itemCount: items.count)
        let withOld = try SecretSealer(masterKey: oldKey, header: resealing, location: location)
        let withNew = try SecretSealer(masterKey: newKey, header: resealing, location: location)
        #expect(withOld.oldKeySealer == nil)
        #expect(withOld.pendingRotation == nil)
        #expect(withNew.pendingRotation?.phase == .resealing)
        #expect(withNew.pendingRotation?.recordedItemCount == items.count)
        let old = try #require(withNew.oldKeySealer)
        #expect(try old.open(items[0].item, as: old.item(for: items[0].key)) == Data("secret of alpha".utf8))
        for opened in [sealer, withOld, withNew] {
            #expect(opened.match(header: resealing) == .rotating)
            #expect(!opened.isSameVault(asHeader: resealing), "no write while a rotation is under way")
        }

        // An item resealed opens with the new key under its new name, and is not resealed again.
        let resealed = try #require(try rotation.reseal(items[0].item, named: items[0].name))
        #expect(resealed.name == withNew.itemName(for: items[0].key))
        #expect(try withNew.open(resealed.item, as: withNew.item(for: items[0].key)) == Data("secret of alpha".utf8))
        #expect(try rotation.reseal(resealed.item, named: resealed.name) == nil)
        #expect(rotation.isResealed(resealed.item, named: resealed.name))
        #expect(rotation.isOldItem(items[1].item, named: items[1].name))
        #expect(throws: CryptStoreError.tamperedItem(key: items[1].name)) {
            try rotation.reseal(items[0].item, named: items[1].name)
        }

        // Retiring: the old key no longer opens it; the new one finishes.
        let retiring = try rotation.retiringHeader(itemCount: items.count)
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try SecretSealer(masterKey: oldKey, header: retiring, location: location)
        }
        let retiringNew = try SecretSealer(masterKey: newKey, header: retiring, location: location)
        #expect(retiringNew.pendingRotation?.phase == .retiring)
        #expect(sealer.match(header: retiring) == .rotated)
        #expect(retiringNew.match(header: retiring) == .rotating)

        // Finished: the new key's settled header, on which its sealer writes; the old key is refused.
        let finished = rotation.finishedHeader
        let settled = try SecretSealer(masterKey: newKey, header: finished, location: location)
        #expect(settled.isSameVault(asHeader: finished))
        #expect(settled.pendingRotation == nil)
        #expect(sealer.match(header: finished) == .rotated)
        #expect(throws: CryptStoreError.wrongMasterKey(path: location, createdWith: .symmetric)) {
            try SecretSealer(masterKey: oldKey, header: finished, location: location)
        }
        let other = try SecretSealer(newHeaderFor: oldKey, location: location)
        #expect(sealer.match(header: other.header) == .otherVault)
    }

    @Test func aRotationGoesOnOrIsReplacedByTheOldKeyAndOnlyGoesOnWithTheNewOne() throws {
        let (sealer, items) = try sealed()
        let rotation = try #require(try sealer.rotation(to: newKey, location: location))
        let resealing = try rotation.resealingHeader(itemCount: items.count)
        let withOld = try SecretSealer(masterKey: oldKey, header: resealing, location: location)
        let withNew = try SecretSealer(masterKey: newKey, header: resealing, location: location)

        let goingOn = try #require(try withOld.rotation(to: newKey, location: location))
        #expect(goingOn.phase == .resealing)
        #expect(goingOn.finishedHeader == rotation.finishedHeader)
        let third = MasterKey.passphrase("a third key")
        let replacing = try #require(try withOld.rotation(to: third, location: location))
        #expect(replacing.phase == .starting)
        #expect(replacing.replacesPendingRotation)

        #expect(try withNew.rotation(to: newKey, location: location)?.phase == .resealing)
        #expect(throws: CryptStoreError.rotationInProgress(path: location)) {
            try withNew.rotation(to: third, location: location)
        }
        // The vault's own key: nothing to do.
        #expect(try sealer.rotation(to: oldKey, location: location) == nil)
    }

    @Test func theHeadersHoldNoKeyInTheClear() throws {
        let keyBytes = Data(repeating: 0x5C, count: 32)
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(data: keyBytes)), location: location)
        let newBytes = Data(repeating: 0xA3, count: 32)
        let rotation = try #require(
            try sealer.rotation(to: .symmetric(SymmetricKey(data: newBytes)), location: location)
        )
        for header in [try rotation.resealingHeader(itemCount: 1), try rotation.retiringHeader(itemCount: 1)] {
            let text = String(decoding: header, as: UTF8.self)
            for bytes in [keyBytes, newBytes] {
                #expect(header.range(of: bytes) == nil)
                #expect(!text.contains(bytes.base64EncodedString()))
            }
        }
    }
}
