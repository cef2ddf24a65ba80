import ArgumentParser

/// `forge`: run the TaskFlow demo on the disk stores, and inspect or edit a data folder's stores.
@main
struct Forge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the TaskFlow demo, and inspect or edit the ForgeStorage stores of a data folder.",
        discussion: """
            A data folder (the root) holds one folder per store namespace: key-value stores (one JSON file \
            per key), file stores, and encrypted vaults (a vault.json header and .secret items). The demo \
            uses <root>/settings, <root>/files and <root>/secrets, with the vault's key in <root>/master.key.
            """,
        subcommands: [DemoCommand.self, InspectCommand.self, KVCommand.self, FilesCommand.self, VaultCommand.self]
    )
}
