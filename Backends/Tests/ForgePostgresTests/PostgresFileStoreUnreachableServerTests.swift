import ForgeFileStore
import ForgePostgres
import Foundation
import Testing

/// A server that cannot be reached: every call fails with its typed error naming the path, within the store's
/// connection wait, never hanging.
@Suite(.enabled(if: TestServer.url != nil, TestServer.skipReason), .timeLimit(.minutes(1)))
struct PostgresFileStoreUnreachableServerTests {
    @Test func everyCallFailsWithItsTypedErrorWithinTheConnectionWait() async throws {
        try await TestServer.withClient(configuration: try TestServer.unreachableConfiguration()) { client in
            let wait = Duration.seconds(1)
            let store = PostgresFileStore(client: client, namespace: "unreachable", connectionWait: wait)
            let clock = ContinuousClock()

            /// Runs `call`, expecting `FileStoreError` within the wait and a margin, and returns it.
            func failure(_ call: () async throws -> Void) async -> FileStoreError? {
                let start = clock.now
                let error = await #expect(throws: FileStoreError.self) { try await call() }
                #expect(start.duration(to: clock.now) < wait + .seconds(3), "the call waited past its connectionWait")
                return error
            }

            let save = await failure { try await store.save(Data("x".utf8), to: "docs/a.txt") }
            #expect(save?.path == "docs/a.txt")
            guard case .writeFailed(_, .other(let message)) = save else {
                Issue.record("expected writeFailed with the connection's reason, got \(String(describing: save))")
                return
            }
            #expect(message.contains("no connection to the PostgreSQL server"), "\(message)")
            // Every other call fails the same way, with its own case and path.
            let reason = FailureReason.other(message)
            let load = await failure { _ = try await store.load("docs/a.txt") }
            #expect(load == .readFailed(path: "docs/a.txt", reason: reason))
            let exists = await failure { _ = try await store.exists("docs/a.txt") }
            #expect(exists == .readFailed(path: "docs/a.txt", reason: reason))
            let delete = await failure { try await store.delete("docs/a.txt") }
            #expect(delete == .deleteFailed(path: "docs/a.txt", reason: reason))
            let list = await failure { _ = try await store.list(in: "docs") }
            #expect(list == .listFailed(path: "docs", reason: reason))
            let total = await failure { _ = try await store.totalSize() }
            #expect(total == .listFailed(path: "", reason: reason))
            let deleteAll = await failure { try await store.deleteAll() }
            #expect(deleteAll == .deleteFailed(path: "", reason: reason))
            await #expect(throws: PostgresStoreError.self) { try await store.prepare() }
        }
    }
}
