import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The flow a store that keeps sealed items as table rows follows (`SQLiteCrypt`, `PostgresCrypt`), written once on
/// `SecretSealer`: looking up a key's rows, listing, the header checks and a rotation's resealing, during a rotation in
/// phases too.
struct SecretSealerRowsTests {
    let location = "secrets table, namespace 'tests'"
    let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
    let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
    let headerRow = "header"

    /// The rows of `sealer` holding `keys`, each key's secret its name's bytes, and the header row.
    private func rows(of sealer: SecretSealer, _ keys: [String]) throws -> [(String, Data)] {
        try keys.map { key in (sealer.itemName(for: key), try sealer.seal(Data(key.utf8), as: sealer.item(for: key))) }
            + [(headerRow, sealer.header)]
    }

    /// The secret of `key` as a store reads it: the first of its lookups found among `rows`, opened.
    private func read(_ key: String, by sealer: SecretSealer, in rows: [(String, Data)]) throws -> Data? {
        let found = Dictionary(uniqueKeysWithValues: rows)
        for lookup in sealer.lookups(for: key) {
            if let sealed = found[lookup.name] { return try lookup.open(sealed) }
        }
        return nil
    }

    @Test func aSettledSealerOpensAndListsItsOwnRows() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let rows = try rows(of: sealer, ["beta", "alpha"])
        #expect(sealer.lookups(for: "alpha").map(\.name) == [sealer.itemName(for: "alpha")])
        #expect(try read("alpha", by: sealer, in: rows) == Data("alpha".utf8))
        #expect(try read("gamma", by: sealer, in: rows) == nil)
        #expect(try sealer.keys(in: rows) == ["beta", "alpha"], "the rows' order; the header row skipped")
        // A row that fails to authenticate names its item in a listing, and its key in a read.
        var damaged = rows
        damaged[0].1[damaged[0].1.count - 1] ^= 1
        #expect(throws: CryptStoreError.tamperedItem(key: rows[0].0)) { try sealer.keys(in: damaged) }
        #expect(throws: CryptStoreError.tamperedItem(key: "beta")) { try read("beta", by: sealer, in: damaged) }
    }

    @Test func theNewKeysSealerReadsTheOldKeysRowsDuringARotationInPhases() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let rotation = try #require(try sealer.rotation(to: newKey, location: location))
        let resealing = try rotation.resealingHeader(itemCount: 2)
        let withNew = try SecretSealer(masterKey: newKey, header: resealing, location: location)
        // alpha is resealed (both its rows are there), beta is not yet.
        let oldRows = try rows(of: sealer, ["alpha", "beta"]).dropLast()
        let alpha = try #require(try rotation.reseal(oldRows[0].1, named: oldRows[0].0))
        let rows = Array(oldRows) + [(alpha.name, alpha.item)]
        #expect(
            withNew.lookups(for: "beta").map(\.name) == [withNew.itemName(for: "beta"), sealer.itemName(for: "beta")]
        )
        #expect(try read("beta", by: withNew, in: rows) == Data("beta".utf8), "through the old key")
        #expect(try read("alpha", by: withNew, in: rows) == Data("alpha".utf8))
        #expect(try withNew.keys(in: rows) == ["alpha", "beta"], "alpha listed once beside its copy")
    }

    @Test func aHeaderFoundRefusesWritesAndTellsOfAMovedKey() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        try sealer.checkWrite(on: sealer.header, location: location)
        try sealer.checkKey(against: nil, location: location)
        try sealer.checkKey(against: sealer.header, location: location)
        let rotation = try #require(try sealer.rotation(to: newKey, location: location))
        #expect(throws: CryptStoreError.rotationInProgress(path: location)) {
            try sealer.checkWrite(on: rotation.resealingHeader(itemCount: 0), location: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try sealer.checkWrite(on: rotation.finishedHeader, location: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try sealer.checkKey(against: rotation.finishedHeader, location: location)
        }
        let other = try SecretSealer(newHeaderFor: oldKey, location: location)
        #expect(throws: CryptStoreError.vaultReplaced(path: location)) {
            try sealer.checkWrite(on: other.header, location: location)
        }
        try sealer.checkKey(against: other.header, location: location)
    }

    @Test func aRotationResealsTheRowsFromTheHeaderItWasPlannedFrom() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let rotation = try #require(try sealer.nextRotation(to: newKey, location: location))
        #expect(rotation.phase == .starting)
        #expect(try sealer.nextRotation(to: oldKey, location: location) == nil, "the key it has: nothing to do")
        let rows = try rows(of: sealer, ["alpha", "beta"])
        let (resealed, dropped) = try rotation.reseal(rows: rows)
        #expect(dropped.isEmpty)
        #expect(resealed.map(\.oldName) == [rows[0].0, rows[1].0])
        let settled = try SecretSealer(masterKey: newKey, header: rotation.finishedHeader, location: location)
        #expect(resealed.map(\.newName) == [settled.itemName(for: "alpha"), settled.itemName(for: "beta")])
        #expect(try settled.keys(in: resealed.map { ($0.newName, $0.sealed) }) == ["alpha", "beta"])
        try rotation.checkStart(header: sealer.header, expected: sealer.header, location: location)
        #expect(throws: CryptStoreError.vaultReplaced(path: location)) {
            try rotation.checkStart(header: nil, expected: sealer.header, location: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try rotation.checkStart(header: rotation.finishedHeader, expected: sealer.header, location: location)
        }
        // A row neither key opens stops the rotation before anything is changed.
        var damaged = rows
        damaged[1].1[damaged[1].1.count - 1] ^= 1
        #expect(throws: CryptStoreError.tamperedItem(key: rows[1].0)) { try rotation.reseal(rows: damaged) }
    }

    @Test func aSealerOpenedWithTheNewKeyOfARotationFinishesItFirst() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let first = try #require(try sealer.rotation(to: newKey, location: location))
        let withNew = try SecretSealer(
            masterKey: newKey,
            header: first.resealingHeader(itemCount: 0),
            location: location
        )
        let third = MasterKey.symmetric(SymmetricKey(size: .bits256))
        // Asked for a third key, it finishes the rotation under way first; the next one starts where it ends.
        let pending = try #require(try withNew.nextRotation(to: third, location: location))
        #expect(pending.phase == .resealing)
        #expect(try pending.newSealer.nextRotation(to: newKey, location: location) == nil)
        let next = try #require(try pending.newSealer.nextRotation(to: third, location: location))
        #expect(next.phase == .starting)
        #expect(next.oldSealer.header == first.finishedHeader)
    }

    @Test func aMissingHeaderRowAndARotationRunAgainAreNamed() {
        #expect(CryptStoreError.headerRowMissing(location: location).description.contains(location))
        #expect(CryptStoreError.masterKeyRotated(path: location).mayMeanRotationWasDone)
        #expect(!CryptStoreError.vaultReplaced(path: location).mayMeanRotationWasDone)
    }
}
