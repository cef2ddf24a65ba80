import ForgeCore
import Testing

/// `withLockUndoingOnFailure` keeps a change that succeeds and puts the state back when one throws.
struct LockedStateUndoTests {
    struct Refused: Error {}

    @Test func aChangeThatThrowsLeavesTheStateAsItWas() {
        let state = LockedState([1, 2])
        #expect(throws: Refused.self) {
            try state.withLockUndoingOnFailure { numbers in
                numbers.append(3)
                throw Refused()
            }
        }
        #expect(state.withLock { $0 } == [1, 2])
        state.withLockUndoingOnFailure { $0.append(3) }
        #expect(state.withLock { $0 } == [1, 2, 3])
    }
}
