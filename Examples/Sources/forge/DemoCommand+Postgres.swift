import ForgeStorage
import Foundation
import TaskFlow

#if Postgres
import ForgePostgres

extension DemoCommand {
    /// The namespace of the demo's stores in a PostgreSQL database, unless `--namespace` names another: one in each
    /// store's table.
    static let postgresNamespace = "taskflow"
    /// The user the demo signs in.
    static let demoUser = "demo"

    /// Runs TaskFlow's server-side sessions service on the three PostgreSQL stores and shows what they kept.
    ///
    /// The same ``TaskFlowSessions`` code runs on the in-memory and disk stores in TaskFlow's tests.
    ///
    /// - Throws: The errors of the URL, the master key, the server and the stores.
    func runOnPostgres(url: String, environment: [String: String]) async throws {
        let configuration = try PostgresOptions.configuration(url: url, environment: environment)
        let root = DataRoot(url: options.rootURL)
        let masterKey = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: false)
        let namespace = namespace ?? Self.postgresNamespace
        try await PostgresOptions.withClient(configuration) { client in
            let settings = PostgresKVStore(client: client, namespace: namespace)
            let files = PostgresFileStore(client: client, namespace: namespace)
            let secrets = PostgresCrypt(client: client, namespace: namespace, masterKey: masterKey)
            // The secrets open first: a wrong master key stops the demo before anything is written.
            try await secrets.prepare()
            let sessions = TaskFlowSessions(settings: settings, files: files, secrets: secrets)

            print("TaskFlow demo on \(PostgresOptions.location(of: configuration)), namespace '\(namespace)'")
            if logout {
                try await sessions.signOut(Self.demoUser)
                print("Signed out: the user's setting, avatar and token are removed.")
                return
            }
            if let signedIn = try await sessions.signedIn(Self.demoUser) {
                let token = try await secrets.get(TaskFlowSessions.tokenKey(of: Self.demoUser)) ?? ""
                let avatar = try? await files.load(TaskFlowSessions.avatarPath(of: Self.demoUser))
                print("Found the session an earlier run kept:")
                print(
                    "  '\(Self.demoUser)' signed in at \(signedIn.formatted(.iso8601)) with token \(Self.masked(token))"
                )
                print("  avatar: \(avatar.map { "\($0.count) bytes" } ?? "missing")")
            } else {
                print("Nobody signed in yet: signing '\(Self.demoUser)' in.")
                let token = "demo-" + UUID().uuidString.prefix(8).lowercased()
                try await sessions.signIn(Self.demoUser, token: token, avatar: Self.avatar, at: Date())
            }

            print("")
            print("Stored:")
            for key in try await settings.keys() {
                let report = await KeyReport.read(key, json: try await settings.rawJSON(forKey: key), from: settings)
                print("  setting  \(key) = \(report.text)")
            }
            print("           in table \(settings.tableName)")
            print("  files    \(try await files.totalSize()) bytes in table \(files.tableName)")
            let secretCount = try await secrets.keys().count
            print("  secrets  \(secretCount) sealed in table \(secrets.tableName), their names hashed")
            print("")
            print("Run it again to see the kept session; inspect it with `forge inspect --postgres URL`.")
        }
    }
}
#else
extension DemoCommand {
    /// Refuses `--postgres`: this build of `forge` has no PostgreSQL support.
    ///
    /// - Throws: ``ForgeError/builtWithoutPostgres``.
    func runOnPostgres(url: String, environment: [String: String]) async throws {
        throw ForgeError.builtWithoutPostgres
    }
}
#endif
