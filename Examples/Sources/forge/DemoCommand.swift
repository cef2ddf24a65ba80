import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow

/// `forge demo`: runs TaskFlow's services on the real disk stores and shows what they kept.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the TaskFlow services on the disk stores and print what is stored where.",
        discussion: """
            The first run signs a demo user in: a token in the encrypted vault, an avatar in the file \
            store, the onboarding flag in the settings. Later runs show the state the earlier ones kept. \
            --logout signs out and clears all three stores. The vault opens with <root>/master.key (created \
            when missing), --key-file, or --passphrase (the value of FORGE_PASSPHRASE, or typed at a prompt). \
            With --postgres URL, TaskFlow's server-side sessions service runs on the three PostgreSQL stores \
            instead, in the namespace 'taskflow' (or --namespace), its secrets sealed with the same master key. \
            With --sqlite FILE, the same services run on the three SQLite stores sharing the database FILE (created \
            when missing), in the namespaces of a data folder; the vault's key file is master.key beside FILE.
            """
    )

    @OptionGroup var options: RootOptions

    @OptionGroup var vaultKey: VaultKeyOptions

    @OptionGroup var postgres: PostgresOptions

    @OptionGroup var sqlite: SQLiteOptions

    @Option(help: ArgumentHelp("With --postgres: the namespace of the stores (default: taskflow).", valueName: "name"))
    var namespace: String?

    func validate() throws {
        if namespace != nil, postgres.url == nil {
            throw ValidationError("--namespace goes with --postgres: in a data folder the demo's namespaces are fixed.")
        }
        try sqlite.validate(postgres: postgres, root: options)
    }

    @Flag(help: "Sign the demo user out, clearing the settings, the files and the secrets.")
    var logout = false

    func run() async throws {
        try await run(environment: ProcessInfo.processInfo.environment)
    }

    /// Runs the demo, printing to standard output, reading a passphrase from `environment` when `--passphrase` asks
    /// for one.
    ///
    /// - Throws: The errors of the master key and the stores; a master key that does not open the vault
    ///   stops the demo before anything is written.
    func run(environment: [String: String]) async throws {
        var output = StandardOutput()
        try await run(environment: environment, to: &output)
    }

    /// Runs the demo, writing what it shows to `output` (the PostgreSQL demo prints to standard output).
    ///
    /// - Throws: As ``run(environment:)``.
    func run(environment: [String: String], to output: inout some CommandOutput) async throws {
        if let url = postgres.url {
            return try await runOnPostgres(url: url, environment: environment)
        }
        if let fileURL = sqlite.fileURL {
            return try await runOnSQLite(fileURL: fileURL, environment: environment, to: &output)
        }
        let root = DataRoot(url: options.rootURL)
        let masterKey = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: false)
        // The vault opens first: a wrong or unsafe master key stops the demo before anything is written.
        let secrets = try EncryptedFileCrypt(
            directory: root.directory,
            namespace: DataRoot.secretsNamespace,
            masterKey: masterKey
        )
        let preferences = DiskKVStore(directory: root.directory, namespace: DataRoot.settingsNamespace)
        let files = DiskFileStore(directory: root.directory, namespace: DataRoot.filesNamespace)

        output.write(line: "TaskFlow demo in \(root.path)")
        guard try await runServices(preferences: preferences, files: files, secrets: secrets, to: &output) else {
            return
        }

        output.write(line: "")
        output.write(line: "Stored:")
        for key in try preferences.keys() {
            output.write(line: "  setting  \(key) = \(await KeyReport.read(key, from: preferences).text)")
        }
        output.write(line: "           in \(preferences.folderURL.path)/")
        for file in try await files.allFiles() {
            output.write(line: "  file     \(file.path) (\(file.size) bytes)")
        }
        output.write(line: "           in \(files.folderURL.path)/")
        output.write(
            line:
                "  secret   \(AuthKeys.accessToken.key), encrypted in \(secrets.fileURL(for: AuthKeys.accessToken).path)"
        )
        output.write(line: "           \(Self.masterKeyText(masterKey))")
        output.write(line: "")
        let rootArgument = options.root.map { " --root \($0)" } ?? ""
        output.write(line: "Run the demo again to see the kept state; inspect it with `forge inspect\(rootArgument)`.")
    }

    /// Runs TaskFlow's services, unchanged, on the disk demo's stores or the SQLite demo's.
    ///
    /// A first run signs the demo user in, a later one shows what the earlier ones kept; each records a launch.
    /// `--logout` signs out instead.
    ///
    /// - Returns: Whether the demo goes on to show what is stored: false after `--logout`.
    /// - Throws: The errors of the services and the stores.
    func runServices(
        preferences: some KVStoring & AsyncKVStoring,
        files: any FileStoring,
        secrets: any CryptStoring,
        to output: inout some CommandOutput
    ) async throws -> Bool {
        let settings = TaskFlowSettingsService(store: preferences)
        let service = TaskFlowService(preferences: preferences, files: files, keychain: secrets)
        if logout {
            try await service.logout()
            output.write(line: "Signed out: the settings, the files and the secrets are cleared.")
            return false
        }

        if try service.isLoggedIn() {
            let token = try secrets.get(AuthKeys.accessToken) ?? ""
            let avatar = try? await files.load(TaskFlowService.avatarPath)
            output.write(line: "Found the state an earlier run kept:")
            output.write(line: "  signed in with token \(Self.masked(token))")
            // Read with `value(for:)`, so a flag that does not decode is shown as such, not as "false".
            let onboarding = TypedKey(TaskKeys.onboarding)
            if let note = await onboarding.check(in: preferences).note(typeName: onboarding.typeName) {
                output.write(line: "  onboarding: \(note)")
            } else {
                output.write(line: "  onboarding completed: \(settings.hasCompletedOnboarding)")
            }
            output.write(line: "  avatar: \(avatar.map { "\($0.count) bytes" } ?? "missing")")
        } else {
            output.write(line: "Nothing stored yet: signing the demo user in.")
            let token = "demo-" + UUID().uuidString.prefix(8).lowercased()
            try await service.login(token: token, avatar: Self.avatar)
        }
        let launches = try settings.recordLaunch()
        output.write(line: "Launch \(launches) recorded.")
        return true
    }

    /// Where the vault's master key is, as the demo shows it.
    static func masterKeyText(_ masterKey: MasterKey) -> String {
        switch masterKey {
        case .keyFile(let url): "vault key in \(url.path)"
        default: "vault opened with a passphrase"
        }
    }

    /// The first characters of a token, the rest hidden.
    static func masked(_ token: String) -> String {
        String(token.prefix(5)) + String(repeating: "•", count: max(token.count - 5, 0))
    }

    /// A tiny stand-in for a picture: the first bytes of a JPEG file, then a label.
    static let avatar = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("TaskFlow demo avatar".utf8)
}
