public import ForgeCrypt
public import ForgeFileStore
public import ForgeKVStore

extension TransactionConformance {
    /// The stores of one database that the checks run transactions on: any of the three kinds, at least one.
    ///
    /// Give every kind the database has, so that the checks of transactions across kinds run too; a check that needs
    /// a kind the subject lacks is reported as skipped, never as passed.
    public struct Subject: Sendable {
        /// A fresh, empty key-value store of the database, or nil.
        public let keyValues: (any AsyncKVStoring & TransactionalKVStore)?
        /// A fresh, empty file store of the database, or nil.
        public let files: (any AsyncFileStoring & TransactionalFileStore)?
        /// A fresh, empty secret store of the database, or nil.
        public let secrets: (any AsyncCryptStoring & TransactionalCrypt)?

        /// Creates the subject of the stores given, which must share one database.
        public init(
            keyValues: (any AsyncKVStoring & TransactionalKVStore)? = nil,
            files: (any AsyncFileStoring & TransactionalFileStore)? = nil,
            secrets: (any AsyncCryptStoring & TransactionalCrypt)? = nil
        ) {
            self.keyValues = keyValues
            self.files = files
            self.secrets = secrets
        }

        /// The subject's stores, in the order the checks stage their writes.
        var stores: [any TransactionalStore] {
            [keyValues, files, secrets].compactMap { $0 }
        }
    }
}
