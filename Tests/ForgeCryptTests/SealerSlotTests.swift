import ForgeCrypt
import ForgeTestSupport
import Foundation
import Testing

/// The slot a store of sealed rows keeps its sealer in: opened once, kept for its copies, replaced by a rotation.
struct SealerSlotTests {
    let location = "secrets table, namespace 'tests'"

    @Test func theSealerIsOpenedOnceAndAFailureKeepsNothing() throws {
        let slot = SealerSlot()
        let sealer = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        #expect(throws: CryptStoreError.self) {
            try slot.sealer { throw CryptStoreError.headerRowMissing(location: location) }
        }
        #expect(slot.current == nil, "a failed opening keeps nothing: the next call tries again")
        #expect(slot.existingSealer { nil } == nil)
        var openings = 0
        for _ in 0..<3 {
            let opened = slot.sealer {
                openings += 1
                return sealer
            }
            #expect(opened.header == sealer.header)
        }
        #expect(openings == 1)
        let other = try SecretSealer(newHeaderFor: .symmetric(SymmetricKey(size: .bits256)), location: location)
        slot.keep(other)
        #expect(slot.existingSealer { sealer }?.header == other.header, "the sealer kept, not found again")
    }
}
