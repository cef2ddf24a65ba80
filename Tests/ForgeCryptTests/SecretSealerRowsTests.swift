import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The flow a store that keeps sealed items as table rows follows (`SQLiteCrypt`, `PostgresCrypt`), written once on
/// `SecretSealer`: opening a key's rows, listing, the header checks and a rotation's resealing, during a rotation in
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

    @Test func aSettledSealerOpensAndListsItsOwnRows() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let rows = try rows(of: sealer, ["beta", "alpha"])
        #expect(sealer.itemNames(for: "alpha") == [sealer.itemName(for: "alpha")])
        let found = Dictionary(uniqueKeysWithValues: rows)
        #expect(try sealer.openSecret(of: "alpha", in: found) == Data("alpha".utf8))
        #expect(try sealer.openSecret(of: "gamma", in: found) == nil)
        #expect(try sealer.keys(inRows: rows) == ["beta", "alpha"], "the rows' order; the header row skipped")
        // A row that fails to authenticate names its item, in a listing and in a read.
        var damaged = rows
        damaged[0].1[damaged[0].1.count - 1] ^= 1
        #expect(throws: CryptStoreError.tamperedItem(key: rows[0].0)) { try sealer.keys(inRows: damaged) }
        #expect(throws: CryptStoreError.tamperedItem(key: "beta")) {
            try sealer.openSecret(of: "beta", in: Dictionary(uniqueKeysWithValues: damaged))
        }
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
        #expect(withNew.itemNames(for: "beta") == [withNew.itemName(for: "beta"), sealer.itemName(for: "beta")])
        let found = Dictionary(uniqueKeysWithValues: rows)
        #expect(try withNew.openSecret(of: "beta", in: found) == Data("beta".utf8), "through the old key")
        #expect(try withNew.openSecret(of: "alpha", in: found) == Data("alpha".utf8))
        #expect(try withNew.keys(inRows: rows) == ["alpha", "beta"], "alpha listed once beside its copy")
    }

    @Test func aHeaderFoundRefusesWritesAndTellsOfAMovedKey() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        try sealer.checkWrite(on: sealer.header, at: location)
        try sealer.checkKey(against: nil, at: location)
        try sealer.checkKey(against: sealer.header, at: location)
        let rotation = try #require(try sealer.rotation(to: newKey, location: location))
        #expect(throws: CryptStoreError.rotationInProgress(path: location)) {
            try sealer.checkWrite(on: rotation.resealingHeader(itemCount: 0), at: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try sealer.checkWrite(on: rotation.finishedHeader, at: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try sealer.checkKey(against: rotation.finishedHeader, at: location)
        }
        let other = try SecretSealer(newHeaderFor: oldKey, location: location)
        #expect(throws: CryptStoreError.vaultReplaced(path: location)) {
            try sealer.checkWrite(on: other.header, at: location)
        }
        try sealer.checkKey(against: other.header, at: location)
    }

    @Test func aRotationResealsTheRowsFromTheHeaderItWasPlannedFrom() throws {
        let sealer = try SecretSealer(newHeaderFor: oldKey, location: location)
        let rotations = try sealer.rotations(to: newKey, location: location)
        let rotation = try #require(rotations.first)
        #expect(rotations.count == 1)
        #expect(try sealer.rotations(to: oldKey, location: location).isEmpty, "the key it has: nothing to do")
        let rows = try rows(of: sealer, ["alpha", "beta"])
        let (resealed, dropped) = try rotation.reseal(rows: rows)
        #expect(dropped.isEmpty)
        #expect(resealed.map(\.oldName) == [rows[0].0, rows[1].0])
        let settled = try SecretSealer(masterKey: newKey, header: rotation.finishedHeader, location: location)
        #expect(resealed.map(\.newName) == [settled.itemName(for: "alpha"), settled.itemName(for: "beta")])
        #expect(try settled.keys(inRows: resealed.map { ($0.newName, $0.sealed) }) == ["alpha", "beta"])
        try rotation.checkStart(header: sealer.header, expected: sealer.header, at: location)
        #expect(throws: CryptStoreError.vaultReplaced(path: location)) {
            try rotation.checkStart(header: nil, expected: sealer.header, at: location)
        }
        #expect(throws: CryptStoreError.masterKeyRotated(path: location)) {
            try rotation.checkStart(header: rotation.finishedHeader, expected: sealer.header, at: location)
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
        #expect(try withNew.rotations(to: newKey, location: location).map(\.phase) == [.resealing])
        let third = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let both = try withNew.rotations(to: third, location: location)
        #expect(both.map(\.phase) == [.resealing, .starting])
        #expect(both.last?.oldSealer.header == first.finishedHeader, "the second starts where the first ends")
    }

    @Test func aMissingHeaderRowAndARotationRunAgainAreNamed() {
        #expect(CryptStoreError.headerRowMissing(at: location).description.contains(location))
        #expect(CryptStoreError.masterKeyRotated(path: location).mayMeanRotationWasDone)
        #expect(!CryptStoreError.vaultReplaced(path: location).mayMeanRotationWasDone)
    }
}
