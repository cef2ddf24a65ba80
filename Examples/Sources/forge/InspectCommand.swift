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
            <root>/master.key). Exits with a non-zero status when a value is corrupt.
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

    @Option(help: ArgumentHelp("The vault's master key file (default: <root>/master.key).", valueName: "file"))
    var keyFile: String?

    func run() async throws {
        let root = try options.existingRoot()
        let namespaces = try namespace.map { [$0] } ?? root.namespaces()
        var reports: [NamespaceReport] = []
        for name in namespaces {
            reports.append(try await report(for: name, in: root))
        }
        if json {
            print(try Self.jsonText(root: root, reports: reports))
        } else {
            print(Self.text(root: root, reports: reports))
        }
        let problems = reports.reduce(0) { $0 + $1.problemCount }
        if problems > 0 { throw ForgeError.problemsFound(problems) }
    }

    private func report(for namespace: String, in root: DataRoot) async throws -> NamespaceReport {
        let kind = try root.kind(of: namespace)
        switch kind {
        case .keyValue:
            let store = DiskKVStore(directory: root.directory, namespace: namespace)
            let values = store.storedKeys()
                .map { key in
                    KeyReport(key: key, json: store.rawJSON(forKey: key).flatMap(KeyReport.parse))
                }
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
                content: .vault(itemCount: count, revealed: try reveal(in: namespace, root: root))
            )
        case .empty:
            return NamespaceReport(name: namespace, kind: kind, folder: root.folderPath(of: namespace), content: .empty)
        }
    }

    /// The secrets named with `--reveal`, read with the master key; nil for a key with no secret.
    private func reveal(in namespace: String, root: DataRoot) throws -> [(key: String, secret: String?)] {
        guard !revealedKeys.isEmpty else { return [] }
        let keyFileURL = keyFile.map { URL(fileURLWithPath: $0) } ?? root.defaultKeyFile
        // Opening with a missing key file would create a new key: refuse instead.
        guard FileManager.default.fileExists(atPath: keyFileURL.path) else {
            throw ForgeError.missingKeyFile(keyFileURL.path)
        }
        let vault = try EncryptedFileCrypt(
            directory: root.directory,
            namespace: namespace,
            masterKey: .keyFile(keyFileURL)
        )
        return try revealedKeys.map { key in
            let bytes = try vault.get(CryptKey<Data>(key: key))
            return (key, bytes.map { String(data: $0, encoding: .utf8) ?? "base64:" + $0.base64EncodedString() })
        }
    }

    static func text(root: DataRoot, reports: [NamespaceReport]) -> String {
        var lines = ["\(root.path)"]
        let looseFiles = root.looseFiles()
        if !looseFiles.isEmpty { lines.append("  files beside the stores: \(looseFiles.joined(separator: ", "))") }
        if reports.isEmpty { lines.append("  (no stores)") }
        for report in reports {
            lines.append("")
            lines.append("\(report.name)  [\(report.kind.name), \(report.summary)]  \(report.folder)")
            switch report.content {
            case .values(let values):
                for value in values {
                    lines.append("  \(value.key) = \(value.json?.text ?? "CORRUPT: the file does not hold JSON")")
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

    static func jsonText(root: DataRoot, reports: [NamespaceReport]) throws -> String {
        let namespaces: [[String: Any]] = reports.map { report in
            var object: [String: Any] = ["name": report.name, "kind": report.kind.rawValue, "folder": report.folder]
            switch report.content {
            case .values(let values):
                object["values"] = values.map { value -> [String: Any] in
                    if let json = value.json { return ["key": value.key, "value": json.object] }
                    return ["key": value.key, "error": "the file does not hold JSON"]
                }
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
            withJSONObject: ["root": root.path, "namespaces": namespaces, "otherFiles": root.looseFiles()]
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
        return values.filter { $0.json == nil }.count
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

    static func parse(_ data: Data) -> JSON? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return nil }
        return JSON(text: String(decoding: data, as: UTF8.self), object: object)
    }
}
