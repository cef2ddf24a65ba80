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
            abstract: "List the files, at any depth, with their sizes and dates."
        )

        @OptionGroup var options: StoreOptions
        @Argument(help: "Only the files in this folder.") var folder: String?

        func run() async throws {
            let store = try options.store()
            var files = try await store.allFiles()
            if let folder, !folder.isEmpty {
                let prefix = folder.hasSuffix("/") ? folder : folder + "/"
                files = files.filter { $0.path.hasPrefix(prefix) }
            }
            for file in files {
                print("\(file.size)\t\(InspectCommand.dateText(file.modificationDate))\t\(file.path)")
            }
        }
    }

    struct Cat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write a file's bytes to standard output.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The file's path in the store.") var path: String

        func run() async throws {
            let data = try await options.store().load(path)
            FileHandle.standardOutput.write(data)
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
