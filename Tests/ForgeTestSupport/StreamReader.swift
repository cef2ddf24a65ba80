/// Reads an `AsyncStream` one element at a time, each within a bounded wait: a guard against a hang when an element
/// never comes, not a wait for it.
public final class StreamReader<Element: Sendable>: @unchecked Sendable {
    // Advanced by one task at a time: a test awaits each `next` before the next.
    private var iterator: AsyncStream<Element>.Iterator

    /// A reader of `stream`, from its first element on.
    public init(_ stream: AsyncStream<Element>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next element; nil when the stream ended or none came within `seconds`.
    public func next(within seconds: Double = 10) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask { await self.advance() }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// The next `count` elements, each within `seconds`; fewer when the stream ended or one did not come.
    public func next(_ count: Int, within seconds: Double = 10) async -> [Element] {
        var elements: [Element] = []
        while elements.count < count, let element = await next(within: seconds) { elements.append(element) }
        return elements
    }

    private func advance() async -> Element? {
        await iterator.next()
    }
}
