import Testing

@testable import ForgeKVStore

/// The channel's ordering rules, driven with explicit versions, as racing writers and new streams would deliver them.
struct KeyChannelTests {
    let key = KVKey<Int>("n")

    @Test func aStreamJoiningWithAnOlderReadStartsFromTheChannelsValue() async {
        let channel = KeyChannel(key: key)
        let (first, firstContinuation) = AsyncStream<Int?>.makeStream()
        let (second, secondContinuation) = AsyncStream<Int?>.makeStream()
        channel.join(firstContinuation, id: 1, value: 1, version: 5)
        channel.publish(2, version: 7)
        // This stream's read was made before the change numbered 7, whose value the channel already holds.
        channel.join(secondContinuation, id: 2, value: 1, version: 6)
        channel.finish()

        #expect(await Array(first) == [1, 2])
        #expect(await Array(second) == [2])
    }

    @Test func aStreamJoiningWithANewerReadGivesItToEveryStream() async {
        let channel = KeyChannel(key: key)
        let (first, firstContinuation) = AsyncStream<Int?>.makeStream()
        let (second, secondContinuation) = AsyncStream<Int?>.makeStream()
        channel.join(firstContinuation, id: 1, value: 1, version: 5)
        // The change numbered 6 is read by the new stream before its own update reaches the channel.
        channel.join(secondContinuation, id: 2, value: 2, version: 6)
        channel.publish(2, version: 6)
        channel.publish(1, version: 5)
        channel.publish(3, version: 7)
        channel.finish()

        #expect(await Array(first) == [1, 2, 3])
        #expect(await Array(second) == [2, 3])
    }

    @Test func ofTwoReadsForOneVersionTheFirstStays() async {
        let channel = KeyChannel(key: key)
        let (first, firstContinuation) = AsyncStream<Int?>.makeStream()
        let (second, secondContinuation) = AsyncStream<Int?>.makeStream()
        channel.join(firstContinuation, id: 1, value: 1, version: 5)
        // Both reads were made after the change numbered 5; a later change takes a larger version and corrects them.
        channel.join(secondContinuation, id: 2, value: 9, version: 5)
        channel.publish(9, version: 6)
        channel.finish()

        #expect(await Array(first) == [1, 9])
        #expect(await Array(second) == [1, 9])
    }

    @Test func aStreamThatLeftIsGivenNothingMore() async {
        let channel = KeyChannel(key: key)
        let (first, firstContinuation) = AsyncStream<Int?>.makeStream()
        let (second, secondContinuation) = AsyncStream<Int?>.makeStream()
        channel.join(firstContinuation, id: 1, value: nil, version: 0)
        channel.join(secondContinuation, id: 2, value: nil, version: 0)
        channel.leave(1)
        firstContinuation.finish()
        channel.publish(4, version: 1)
        channel.finish()

        #expect(await Array(first) == [nil])
        #expect(await Array(second) == [nil, 4])
    }

    @Test func aValueStoredIdenticallyIsSkippedAndNegativeZeroIsNot() async {
        let channel = KeyChannel(key: KVKey<Double>("offset"))
        let (stream, continuation) = AsyncStream<Double?>.makeStream()
        channel.join(continuation, id: 1, value: 0.0, version: 1)
        channel.publish(0.0, version: 2)
        channel.publish(-0.0, version: 3)
        channel.publish(-0.0, version: 4)
        channel.finish()

        let signs = await Array(stream).map { $0?.sign }
        #expect(signs == [.plus, .minus])
    }
}

extension Array {
    /// Everything `sequence` yields, in order, until it ends.
    init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
        var elements: [Element] = []
        for await element in sequence { elements.append(element) }
        self = elements
    }
}
