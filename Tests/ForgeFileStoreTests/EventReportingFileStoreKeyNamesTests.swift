import ForgeCore
import ForgeFileStore
import ForgeStorageTesting
import ForgeTestSupport
import Foundation
import Testing

/// `reportingEvents(label:keyNames:to:)` on file stores: with `.omitted` or a replacement, no event names a path (or
/// a listed folder) in the clear, nor does a failure's error or description; with `.clear` (the default) they do.
struct EventReportingFileStoreKeyNamesTests {
    /// A folder and a file named after a session's token, which a log must not show.
    private static let folder = "7f3c9e1d-token"
    private static let path = "7f3c9e1d-token/session.json"

    /// The events of every call and a failed save of the token's file, on a memory store whose events name paths
    /// as `keyNames` says.
    private static func events(naming keyNames: StoreEvent.KeyNames) async throws -> [StoreEvent] {
        let faults = StoreFaults()
        let events = RecordedEvents()
        let store = InMemoryFileStore(faults: faults).reportingEvents(keyNames: keyNames, to: events.handler)
        try await store.save(Data("hello".utf8), to: path)
        _ = try await store.load(path)
        _ = store.exists(path)
        _ = try await store.list(in: folder)
        faults.failNext(.write, at: path, with: .outOfSpace)
        await #expect(throws: FileStoreError.self) { try await store.save(Data(), to: path) }
        try await store.delete(path)
        #expect(events.calls.count == 6)
        return events.all
    }

    /// Everything `event` holds, as text: its target, kind, failure and error.
    private static func text(of event: StoreEvent) -> String {
        var text = ""
        dump(event, to: &text)
        if case .call(let call) = event.kind, let failure = call.failure {
            text += "\(failure) \(failure.error.map { "\($0)" } ?? "")"
        }
        return text
    }

    @Test func clearNamesShowThePathAsBefore() async throws {
        let events = try await Self.events(naming: .clear)
        #expect(events.contains { $0.target == Self.path })
        #expect(events.contains { $0.target == Self.folder })
    }

    @Test(arguments: ["omitted", "replaced"])
    func noEventNamesThePathOrFolderInTheClear(_ form: String) async throws {
        let keyNames: StoreEvent.KeyNames = form == "omitted" ? .omitted : .replaced { "#\($0.count)" }
        let events = try await Self.events(naming: keyNames)
        for event in events {
            #expect(!Self.text(of: event).contains("7f3c9e1d"), "\(event.operation) names the path")
        }
        let failure = try #require(
            events.compactMap { event -> StoreEvent.Failure? in
                guard case .call(let call) = event.kind else { return nil }
                return call.failure
            }
            .first
        )
        #expect(failure.error == nil)
        #expect(failure.description == "writeFailed: \(FailureReason.outOfSpace)")
        if form == "omitted" {
            #expect(events.allSatisfy { $0.target == nil && $0.withholdsNames })
        } else {
            #expect(
                events.compactMap(\.target) == Array(repeating: "#\(Self.path.count)", count: 3)
                    + ["#\(Self.folder.count)"] + Array(repeating: "#\(Self.path.count)", count: 2)
            )
        }
    }
}
