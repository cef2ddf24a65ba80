/// What kind of store a namespace folder holds, told from its contents.
enum StoreKind: String, CaseIterable, Sendable {
    /// A `DiskKVStore`: `.json` files whose names are escaped keys, and no folders.
    case keyValue = "key-value"
    /// A `DiskFileStore`: any other files and folders.
    case files
    /// An `EncryptedFileCrypt` vault: a `vault.json` header and `.secret` items.
    case vault
    /// A folder that holds nothing yet.
    case empty

    /// How the kind is named in messages.
    var name: String {
        switch self {
        case .keyValue: "key-value store"
        case .files: "file store"
        case .vault: "vault"
        case .empty: "empty folder"
        }
    }

    /// The indefinite article for ``name``.
    var article: String {
        self == .empty ? "an" : "a"
    }
}
