import Testing

@testable import ForgeCore

struct LockedStateTests {
    @Test func updatesFromManyTasksAreNotLost() async {
        let counter = LockedState(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<1_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 16_000)
    }

    @Test func withLockReturnsAndRethrows() {
        struct Stop: Error {}
        let state = LockedState([1, 2])
        #expect(state.withLock { $0.count } == 2)
        #expect(throws: Stop.self) { try state.withLock { _ in throw Stop() } }
    }
}
