import ForgeHummingbird
import ForgeKVStore
import ForgeSQLite
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdTesting
import Testing

/// The set-up the DocC article shows, built and run: an app whose sessions live in a SQLite file.
@Suite("The documentation's set-up")
struct DocumentationSampleTests {
    struct Visitor: Codable, Sendable {
        var name: String
    }

    @Test func anAppKeepsItsSessionsInASQLiteFile() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("forge-hummingbird-docs-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let databaseURL = folder.appendingPathComponent("app.sqlite")

        let persist = ForgePersistDriver(store: SQLiteKVStore(fileURL: databaseURL, namespace: "sessions"))
        let router = Router(context: BasicSessionRequestContext<Visitor, Visitor>.self)
        router.add(middleware: SessionMiddleware(storage: persist))
        router.put("login") { request, context -> HTTPResponse.Status in
            context.sessions.createSession(Visitor(name: try request.uri.queryParameters.require("name")))
            return .ok
        }
        var app = Application(router: router)
        app.addServices(persist)  // reclaims expired sessions while the app runs

        try await app.test(.live) { client in
            let cookie = try await client.execute(uri: "/login?name=ada", method: .put) { response in
                #expect(response.status == .ok)
                return response.headers[.setCookie]
            }
            #expect(cookie != nil)
        }
        #expect(try persist.store.keys().count == 1, "the session is in the file")
    }
}
