import ArgumentParser
import ForgeStorage
import Foundation

/// `forge kv`: read and edit one key of a key-value store.
struct KVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kv",
        abstract: "Read and edit the keys of a key-value store.",
        subcommands: [Get.self, SetValue.self, Remove.self]
    )

    /// The options of every `kv` subcommand.
    struct StoreOptions: ParsableArguments {
        @OptionGroup var root: RootOptions

        @Option(help: ArgumentHelp("The key-value store's namespace.", valueName: "name"))
        var namespace = DataRoot.settingsNamespace

        /// The store, once the key, the folder and the namespace are checked.
        ///
        /// - Throws: ``ForgeError/emptyKey`` for an empty `key`, before the folder is looked at, or the
        ///   errors of ``RootOptions/existingRoot()`` and ``DataRoot/require(_:namespace:)``.
        func store(forKey key: String) throws -> DiskKVStore {
            guard !key.isEmpty else { throw ForgeError.emptyKey }
            let root = try root.existingRoot()
            try root.require(.keyValue, namespace: namespace)
            return DiskKVStore(directory: root.directory, namespace: namespace)
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a key's value as JSON.",
            discussion: """
                For a key TaskFlow declares, the value is also read as the type TaskFlow reads it as: one that \
                does not decode as it is printed, then reported as an error, so it is not taken for a value \
                the app reads.
                """
        )

        @OptionGroup var options: StoreOptions
        @Argument(help: "The key.") var key: String

        func run() async throws {
            var output = StandardOutput()
            try await run(to: &output)
        }

        /// Writes the value's JSON to `output`.
        ///
        /// - Throws: ``ForgeError/missingKey(_:namespace:)``, ``ForgeError/corruptValue(key:namespace:)``,
        ///   ``ForgeError/undecodableValue(key:namespace:type:reason:)`` after the JSON is written, for a key
        ///   TaskFlow declares whose value does not decode as its type, or the errors of
        ///   ``StoreOptions/store(forKey:)``.
        func run(to output: inout some CommandOutput) async throws {
            let store = try options.store(forKey: key)
            guard let data = store.rawJSON(forKey: key) else {
                throw ForgeError.missingKey(key, namespace: options.namespace)
            }
            guard KeyReport.parse(data) != nil else {
                throw ForgeError.corruptValue(key: key, namespace: options.namespace)
            }
            output.write(line: String(decoding: data, as: UTF8.self))
            guard let typed = TypedKey.taskFlow(named: key) else { return }
            switch typed.check(in: store) {
            case .decodes, .migrates, .unreadable:
                // A read that fails right after the JSON was read is a race with another process, not the value's
                // fault: the JSON printed is what the store held.
                break
            case .doesNotDecode(let reason):
                throw ForgeError.undecodableValue(
                    key: key,
                    namespace: options.namespace,
                    type: typed.typeName,
                    reason: reason
                )
            }
        }
    }

    struct SetValue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Store a JSON value for a key.",
            discussion: "Example: forge kv set taskflow.launchCount 7; forge kv set name --string 'Task Flow'."
        )

        @OptionGroup var options: StoreOptions
        @Argument(help: "The key.") var key: String
        @Argument(help: "The value, as JSON (or as text with --string).") var value: String
        @Flag(help: "Store the value as a string instead of parsing it as JSON.") var string = false

        func run() async throws {
            guard !key.isEmpty else { throw ForgeError.emptyKey }
            let parsed: JSONValue
            if string {
                parsed = .string(value)
            } else {
                guard let json = JSONValue.parse(value) else { throw ForgeError.notJSON(value) }
                parsed = json
            }
            let store = try options.store(forKey: key)
            try store.set(KVKey<JSONValue>(key), value: parsed)
            print("\(key) = \(String(decoding: store.rawJSON(forKey: key) ?? Data(), as: UTF8.self))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a key and its value.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The key.") var key: String

        func run() async throws {
            let store = try options.store(forKey: key)
            guard store.rawJSON(forKey: key) != nil else {
                throw ForgeError.missingKey(key, namespace: options.namespace)
            }
            try store.remove(KVKey<JSONValue>(key))
            print("Removed \(key).")
        }
    }
}
