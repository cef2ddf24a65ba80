import ForgeStorageTesting
import Testing

struct StoreOperationsTests {
    @Test func everyOperationHasABitOfItsOwnAndAllHoldsEveryOne() {
        let singles = StoreOperation.allCases.map { StoreOperations($0) }
        #expect(Set(singles.map(\.rawValue)).count == StoreOperation.allCases.count)
        for single in singles {
            #expect(single.rawValue.nonzeroBitCount == 1)
            #expect(StoreOperations.all.contains(single))
        }
        #expect(StoreOperations.all == StoreOperations(singles))
        #expect(StoreOperations.all == [.reads, .changes])
        #expect(StoreOperations.reads.intersection(.changes).isEmpty)
    }

    @Test func theNamedSetsAreTheirOperations() {
        #expect(StoreOperations.read == StoreOperations(.read))
        #expect(StoreOperations.exists == StoreOperations(.exists))
        #expect(StoreOperations.write == StoreOperations(.write))
        #expect(StoreOperations.delete == StoreOperations(.delete))
        #expect(StoreOperations.deleteAll == StoreOperations(.deleteAll))
        #expect(StoreOperations.list == StoreOperations(.list))
        #expect(StoreOperations.reclaimExpired == StoreOperations(.reclaimExpired))
        #expect(StoreOperations.rotateMasterKey == StoreOperations(.rotateMasterKey))
        #expect(StoreOperations.changes == [.write, .delete, .deleteAll, .reclaimExpired, .rotateMasterKey])
    }
}
