import ArgumentParser
import ForgeStorage
import Foundation

/// `forge inspect`: what the stores of a data folder hold, like `defaults read` for ForgeStorage.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the namespaces of a data folder: keys with their JSON values, files, vault items.",
        discussion: """
            Secrets stay hidden: a vault shows its item count only. Name the secrets to show with \
            --reveal KEY (repeatable); the vault opens with the key file (--key-file, default \
            <root>/master.key), or with --passphrase for a vault made with one (the value of \
            FORGE_PASSPHRASE, or typed at a prompt). A key TaskFlow declares whose value does not decode as \
            the type TaskFlow reads it as is marked "does not decode as TYPE", and one stored by an older \
            version that the key's migration reads is marked as such. Exits with a non-zero status when a value \
            is corrupt or does not decode, or a revealed key has no secret. With --postgres URL, the namespaces \
            of a PostgreSQL database's three store tables are shown the same way, and with --sqlite FILE those of a \
            SQLite database file, opened read-only (its secrets opened, for --reveal, with master.key beside FILE).
            """
    )

    @OptionGroup var options: RootOptions

    @Option(help: ArgumentHelp("Show only this namespace.", valueName: "name"))
    var namespace: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(
        name: .customLong("reveal"),
        help: ArgumentHelp("Show the secret stored under this key (repeatable).", valueName: "key")
    )
    var revealedKeys: [String] = []

    @OptionGroup var vaultKey: VaultKeyOptions

    @OptionGroup var postgres: PostgresOptions

    @OptionGroup var sqlite: SQLiteOptions

    func validate() throws {
        try sqlite.validate(postgres: postgres, root: options)
    }

    func run() async throws {
        var output = StandardOutput()
        try await run(environment: ProcessInfo.processInfo.environment, to: &output)
    }

    /// Prints the report to standard output, reading a passphrase from `environment` when `--passphrase` asks for
    /// one, as ``run(environment:to:)`` does.
    func run(environment: [String: String]) async throws {
        var output = StandardOutput()
        try await run(environment: environment, to: &output)
    }

    /// Writes the report to `output`, reading a passphrase from `environment` when `--passphrase` asks for one.
    ///
    /// - Throws: ``ForgeError/missingSecrets(_:vaults:)`` when a `--reveal` key has a secret in none of the
    ///   vaults inspected, ``ForgeError/problemsFound(_:)`` when a value is corrupt or does not decode as the
    ///   type TaskFlow reads it as (both after the report is written), or the errors of the folder, the
    ///   namespaces, the listing of a key-value store and the master key.
    func run(environment: [String: String], to output: inout some CommandOutput) async throws {
        guard !revealedKeys.contains("") else { throw ForgeError.emptyKey }
        let location: String
        let otherFiles: [String]
        let reports: [NamespaceReport]
        if let url = postgres.url {
            (location, reports) = try await postgresReports(url: url, environment: environment)
            otherFiles = []
        } else if let fileURL = sqlite.fileURL {
            location = fileURL.path
            reports = try await sqliteReports(fileURL: fileURL, environment: environment)
            otherFiles = []
        } else {
            let root = try options.existingRoot()
            location = root.path
            otherFiles = root.looseFiles()
            reports = try await folderReports(in: root, environment: environment)
        }
        if json {
            output.write(line: try Self.jsonText(location: location, otherFiles: otherFiles, reports: reports))
        } else {
            output.write(line: Self.text(location: location, otherFiles: otherFiles, reports: reports))
        }
        let missing = Self.keysWithoutSecret(revealedKeys, in: reports)
        if !missing.isEmpty {
            let vaults = reports.filter { $0.kind == .vault }.map(\.name)
            throw ForgeError.missingSecrets(missing, vaults: vaults)
        }
        let problems = reports.reduce(0) { $0 + $1.problemCount }
        if problems > 0 { throw ForgeError.problemsFound(problems) }
    }

    /// The reports of the namespaces of the data folder `root` (or of `--namespace` alone).
    private func folderReports(in root: DataRoot, environment: [String: String]) async throws -> [NamespaceReport] {
        let namespaces = try namespace.map { [$0] } ?? root.namespaces()
        var masterKey: MasterKey?
        var reports: [NamespaceReport] = []
        for name in namespaces {
            let kind = try root.kind(of: name)
            // The key is chosen at the first vault, so a passphrase is asked for once and only when needed.
            if kind == .vault, !revealedKeys.isEmpty, masterKey == nil {
                masterKey = try vaultKey.masterKey(for: root, environment: environment, keyFileMustExist: true)
            }
            reports.append(try await report(for: name, kind: kind, in: root, masterKey: masterKey))
        }
        return reports
    }

    /// The keys of `keys` that have a secret in none of the vaults of `reports`.
    private static func keysWithoutSecret(_ keys: [String], in reports: [NamespaceReport]) -> [String] {
        var found: Set<String> = []
        for report in reports {
            guard case .vault(_, let revealed) = report.content else { continue }
            for (key, secret) in revealed where secret != nil { found.insert(key) }
        }
        return keys.filter { !found.contains($0) }
    }

    private func report(
        for namespace: String,
        kind: StoreKind,
        in root: DataRoot,
        masterKey: MasterKey?
    ) async throws -> NamespaceReport {
        switch kind {
        case .keyValue:
            let store = DiskKVStore(directory: root.directory, namespace: namespace)
            // `keys()` throws: a folder that cannot be listed is an error, not an empty store.
            var values: [KeyReport] = []
            for key in try store.keys() { values.append(await KeyReport.read(key, from: store)) }
            return NamespaceReport(name: namespace, kind: kind, folder: store.folderURL.path, content: .values(values))
        case .files:
            let store = DiskFileStore(directory: root.directory, namespace: namespace)
            let files = try await store.allFiles()
            return NamespaceReport(name: namespace, kind: kind, folder: store.folderURL.path, content: .files(files))
        case .vault:
            let count = try EncryptedFileCrypt.itemCount(directory: root.directory, namespace: namespace)
            return NamespaceReport(
                name: namespace,
                kind: kind,
                folder: root.folderPath(of: namespace),
                content: .vault(itemCount: count, revealed: try reveal(in: namespace, root: root, masterKey: masterKey))
            )
        case .empty:
            return NamespaceReport(name: namespace, kind: kind, folder: root.folderPath(of: namespace), content: .empty)
        }
    }

    /// The secrets named with `--reveal`, read with the master key; nil for a key with no secret.
    private func reveal(
        in namespace: String,
        root: DataRoot,
        masterKey: MasterKey?
    ) throws -> [(key: String, secret: String?)] {
        guard let masterKey, !revealedKeys.isEmpty else { return [] }
        let vault = try EncryptedFileCrypt(directory: root.directory, namespace: namespace, masterKey: masterKey)
        return try revealedKeys.map { key in
            let bytes = try vault.get(CryptKey<Data>(key: key))
            return (key, bytes.map(Self.secretText))
        }
    }

    /// A revealed secret as text: its UTF-8, or `base64:` and its bytes in Base64 when it is not text.
    static func secretText(_ secret: Data) -> String {
        String(data: secret, encoding: .utf8) ?? "base64:" + secret.base64EncodedString()
    }

    /// The text report of the stores at `location` (a data folder, or a database), with the `otherFiles` beside
    /// them.
    static func text(location: String, otherFiles: [String], reports: [NamespaceReport]) -> String {
        var lines = [location]
        if !otherFiles.isEmpty { lines.append("  files beside the stores: \(otherFiles.joined(separator: ", "))") }
        if reports.isEmpty { lines.append("  (no stores)") }
        for report in reports {
            lines.append("")
            lines.append("\(report.name)  [\(report.kind.name), \(report.summary)]  \(report.folder)")
            switch report.content {
            case .values(let values):
                for value in values {
                    lines.append("  \(value.key) = \(value.text)")
                }
            case .files(let files):
                let width = files.map { String($0.size).count }.max() ?? 0
                for file in files {
                    let size = String(repeating: " ", count: width - String(file.size).count) + String(file.size)
                    lines.append("  \(size) B  \(Self.dateText(file.modificationDate))  \(file.path)")
                }
            case .vault(_, let revealed):
                for (key, secret) in revealed {
                    lines.append("  \(key) = \(secret ?? "(no secret stored)")")
                }
            case .empty:
                break
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The JSON report of the stores at `location` (a data folder, or a database), with the `otherFiles` beside
    /// them.
    static func jsonText(location: String, otherFiles: [String], reports: [NamespaceReport]) throws -> String {
        let namespaces: [[String: Any]] = reports.map { report in
            var object: [String: Any] = ["name": report.name, "kind": report.kind.rawValue, "folder": report.folder]
            switch report.content {
            case .values(let values):
                object["values"] = values.map(\.jsonObject)
            case .files(let files):
                object["files"] = files.map {
                    ["path": $0.path, "size": $0.size, "modified": Self.dateText($0.modificationDate)] as [String: Any]
                }
            case .vault(let itemCount, let revealed):
                object["itemCount"] = itemCount
                if !revealed.isEmpty {
                    object["revealed"] = revealed.map {
                        ["key": $0.key, "secret": $0.secret.map { $0 as Any } ?? NSNull()] as [String: Any]
                    }
                }
            case .empty:
                break
            }
            return object
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["root": location, "namespaces": namespaces, "otherFiles": otherFiles]
                as [String: Any],
            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        )
        return String(decoding: data, as: UTF8.self)
    }

    static func dateText(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// What `forge inspect` found in one namespace.
struct NamespaceReport {
    enum Content {
        case values([KeyReport])
        case files([StoredFileInfo])
        case vault(itemCount: Int, revealed: [(key: String, secret: String?)])
        case empty
    }

    var name: String
    var kind: StoreKind
    var folder: String
    var content: Content

    var summary: String {
        switch content {
        case .values(let values): Self.count(values.count, "key")
        case .files(let files): Self.count(files.count, "file") + ", \(files.reduce(0) { $0 + $1.size }) bytes"
        case .vault(let itemCount, _): Self.count(itemCount, "item")
        case .empty: "nothing stored"
        }
    }

    var problemCount: Int {
        guard case .values(let values) = content else { return 0 }
        return values.filter(\.isProblem).count
    }

    private static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

/// One key of a key-value store and its value's JSON; `json` is nil when the file is corrupt.
struct KeyReport {
    struct JSON {
        var text: String
        var object: Any
    }

    var key: String
    var json: JSON?
    /// The type TaskFlow reads the key as, and how the value reads as it; nil for a key TaskFlow does not
    /// declare, and for a corrupt file.
    var typeCheck: (typeName: String, check: TypeCheck)?

    static func parse(_ data: Data) -> JSON? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return nil }
        return JSON(text: String(decoding: data, as: UTF8.self), object: object)
    }

    /// The report of `key` in `store`: its JSON as stored, and, for a key TaskFlow declares, whether it reads
    /// as the key's type.
    static func read(_ key: String, from store: DiskKVStore) async -> KeyReport {
        await read(key, json: store.rawJSON(forKey: key), from: store)
    }

    /// The report of `key`, whose stored JSON is `data` (nil when missing) in `store`, which reads it as TaskFlow
    /// does for a key TaskFlow declares.
    static func read(_ key: String, json data: Data?, from store: any AsyncKVStoring) async -> KeyReport {
        let json = data.flatMap(parse)
        guard json != nil, let typed = TypedKey.taskFlow(named: key) else {
            return KeyReport(key: key, json: json, typeCheck: nil)
        }
        return KeyReport(key: key, json: json, typeCheck: (typed.typeName, await typed.check(in: store)))
    }

    /// Whether the app cannot read the value: the file is corrupt, or the value does not decode as the type.
    var isProblem: Bool {
        json == nil || typeCheck?.check.isProblem == true
    }

    /// The note on how the value reads as the key's type, or nil when there is nothing to say.
    var note: String? {
        typeCheck.flatMap { $0.check.note(typeName: $0.typeName) }
    }

    /// The value's JSON and the note, as `inspect` and `demo` show them.
    var text: String {
        guard let json else { return "CORRUPT: the file does not hold JSON" }
        return note.map { "\(json.text)  (\($0))" } ?? json.text
    }

    /// The key, its value and the type it is read as, as `inspect --json` shows them.
    var jsonObject: [String: Any] {
        guard let json else { return ["key": key, "error": "the file does not hold JSON"] }
        var object: [String: Any] = ["key": key, "value": json.object]
        if let typeCheck {
            object["type"] = typeCheck.typeName
            switch typeCheck.check {
            case .decodes: break
            case .migrates: object["migrated"] = true
            case .doesNotDecode, .unreadable: object["error"] = note
            }
        }
        return object
    }
}
