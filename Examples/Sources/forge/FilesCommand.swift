import ArgumentParser
import ForgeStorage
import Foundation

/// `forge files`: list, print and delete the files of a file store.
struct FilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files",
        abstract: "List, print and delete the files of a file store.",
        subcommands: [List.self, Cat.self, Remove.self]
    )

    /// The options of every `files` subcommand.
    struct StoreOptions: ParsableArguments {
        @OptionGroup var root: RootOptions

        @Option(help: ArgumentHelp("The file store's namespace.", valueName: "name"))
        var namespace = DataRoot.filesNamespace

        /// The store, once the folder and the namespace are checked.
        func store() throws -> DiskFileStore {
            let root = try root.existingRoot()
            try root.require(.files, namespace: namespace)
            return DiskFileStore(directory: root.directory, namespace: namespace)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "List what is directly in a folder, or with --recursive every file beneath it.",
            discussion: """
                Each line is a size in bytes, a modification date and a path, separated by tabs. Without \
                --recursive, the files and sub-folders directly in FOLDER (default: the store's top folder) \
                are listed, like FileStoring.list(in:); sub-folders end in '/' and show '-' for their size \
                and date. With --recursive (-r), every file beneath FOLDER is listed, at any depth.
                """
        )

        @OptionGroup var options: StoreOptions
        @Argument(help: ArgumentHelp("The folder to list (default: the store's top folder).", valueName: "folder"))
        var folder: String?
        @Flag(name: .shortAndLong, help: "List every file beneath the folder, at any depth, instead of its entries.")
        var recursive = false

        func run() async throws {
            var output = StandardOutput()
            try await run(to: &output)
        }

        /// Lists the folder to `output`.
        ///
        /// - Throws: ``ForgeError/missingFolder(_:namespace:)`` for a folder that holds nothing (folders exist
        ///   only while they hold a file), the errors of ``StoreOptions/store()``, or the store's
        ///   ``FileStoreError`` for an invalid path.
        func run(to output: inout some CommandOutput) async throws {
            let store = try options.store()
            // `list(in:)` checks the path, and a folder that is not there lists as empty.
            let folder = folder ?? ""
            let entries = try await store.list(in: folder)
            let isTopFolder = folder.isEmpty
            if entries.isEmpty && !isTopFolder {
                throw ForgeError.missingFolder(folder, namespace: options.namespace)
            }
            if recursive {
                let prefix = isTopFolder ? "" : (folder.hasSuffix("/") ? folder : folder + "/")
                for file in try await store.allFiles() where file.path.hasPrefix(prefix) {
                    output.write(line: Self.line(for: file))
                }
                return
            }
            for entry in entries {
                if entry.hasSuffix("/") {
                    output.write(line: "-\t-\t\(entry)")
                } else if let file = try store.fileInfo(at: entry) {
                    output.write(line: Self.line(for: file))
                }
            }
        }

        private static func line(for file: StoredFileInfo) -> String {
            "\(file.size)\t\(InspectCommand.dateText(file.modificationDate))\t\(file.path)"
        }
    }

    struct Cat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a file's bytes to standard output.",
            discussion: """
                On a terminal, a file that is not plain text (not UTF-8, or holding control characters other \
                than newlines and tabs) is refused: pass --hex for a hex dump, or --raw to write its bytes \
                anyway. Piped or redirected, the bytes are written as they are.
                """
        )

        /// How `files cat` writes a file that is not plain text.
        enum Format: String, EnumerableFlag {
            /// Write the bytes as they are, even to a terminal.
            case raw
            /// Write a hex dump (`hexdump -C`'s layout), even when piped.
            case hex

            static func help(for value: Format) -> ArgumentHelp? {
                switch value {
                case .raw: "Write the bytes as they are, even to a terminal."
                case .hex: "Write a hex dump of the bytes, like hexdump -C."
                }
            }
        }

        @OptionGroup var options: StoreOptions
        @Argument(help: "The file's path in the store.") var path: String
        @Flag var format: Format?

        func run() async throws {
            var output = StandardOutput()
            try await run(to: &output)
        }

        /// Writes the file to `output`: as it is when piped, with `--raw`, or when it is plain text; as a hex
        /// dump with `--hex`.
        ///
        /// - Throws: ``ForgeError/binaryToTerminal(path:)`` when `output` is a terminal and the file is not
        ///   plain text (see ``TerminalText/isPrintable(_:)``), or the store's ``FileStoreError``.
        func run(to output: inout some CommandOutput) async throws {
            let data = try await options.store().load(path)
            switch format {
            case .hex:
                for line in HexDump.lines(of: data) { output.write(line: line) }
            case .raw:
                output.write(data)
            case nil:
                guard !output.isTerminal || TerminalText.isPrintable(data) else {
                    throw ForgeError.binaryToTerminal(path: path)
                }
                output.write(data)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete a file.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The file's path in the store.") var path: String

        func run() async throws {
            try await options.store().delete(path)
            print("Deleted \(path).")
        }
    }
}
