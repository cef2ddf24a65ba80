import ArgumentParser
import ForgeStorage
import Foundation
import Observation

/// `forge kv`: read and edit one key of a key-value store.
struct KVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kv",
        abstract: "Read, edit and watch the keys of a key-value store.",
        subcommands: [Get.self, SetValue.self, Remove.self, Watch.self]
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
            switch await typed.check(in: store) {
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

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a key's value, then each new value as it changes, until interrupted.",
            discussion: """
                Each value is printed as JSON on a line of its own (KEY = VALUE), read as --type: KEY (no value) \
                when the key holds none, KEY (error: ...) when its value does not read as the type. On Linux the \
                changes other processes make are printed within milliseconds, such as a forge kv set in another \
                terminal; on other platforms, for now, they are not seen. \
                Example: forge kv watch taskflow.launchCount --type int.
                """
        )

        /// The type a watched value is read as.
        enum ValueType: String, CaseIterable, ExpressibleByArgument {
            /// Any JSON value, as `forge kv set` stores it.
            case json
            case string
            case int
            case double
            case bool
        }

        @OptionGroup var options: StoreOptions
        @Argument(help: "The key.") var key: String
        @Option(help: "The type to read the value as.") var type = ValueType.json
        @Option(help: ArgumentHelp("Stop after printing this many values, the current one included.", valueName: "n"))
        var count: Int?

        func validate() throws {
            if let count, count < 1 { throw ValidationError("--count must be at least 1.") }
        }

        func run() async throws {
            var output = StandardOutput()
            try await run(to: &output)
        }

        /// Writes the key's value to `output`, then each new value, until `count` values are written or the task
        /// is cancelled.
        ///
        /// - Throws: The errors of ``StoreOptions/store(forKey:)``; a value that does not read as ``type`` is
        ///   written as such, and the watch goes on.
        @MainActor
        func run(to output: inout some CommandOutput) async throws {
            let store = ReactiveKVStore(try options.store(forKey: key))
            switch type {
            case .json: await watch(KVKey<JSONValue>(key), in: store, to: &output)
            case .string: await watch(KVKey<String>(key), in: store, to: &output)
            case .int: await watch(KVKey<Int>(key), in: store, to: &output)
            case .double: await watch(KVKey<Double>(key), in: store, to: &output)
            case .bool: await watch(KVKey<Bool>(key), in: store, to: &output)
            }
        }

        /// Binds `key` in `store` and writes its value, then each new one, as ``run(to:)`` says.
        @MainActor
        private func watch<Value: Codable & Sendable & Equatable>(
            _ key: KVKey<Value>,
            in store: ReactiveKVStore,
            to output: inout some CommandOutput
        ) async {
            let binding = KVBinding(key, in: store)
            // An observation tells of one change, so it is made again with each read; a change it tells of is made
            // on the main actor, as this runs, so it is made by the time the next read comes.
            let (changes, changed) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            var nextChange = changes.makeAsyncIterator()
            var written = 0
            repeat {
                let (value, error) = withObservationTracking {
                    (binding.value, binding.lastError)
                } onChange: {
                    changed.yield()
                }
                output.write(line: Self.line(key: key.key, value: value, error: error))
                written += 1
                if let count, written >= count { return }
            } while await nextChange.next() != nil
        }

        /// The line written for `key` holding `value`, or failing to read with `error`.
        static func line<Value: Encodable>(key: String, value: Value?, error: KVStoreError?) -> String {
            if let error { return "\(key) (error: \(error))" }
            guard let value else { return "\(key) (no value)" }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // The value was decoded from the JSON the store holds, so it encodes again.
            let json = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            return "\(key) = \(json)"
        }
    }
}
