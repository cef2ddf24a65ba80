import ForgeCrypt
import ForgeFileStore
import ForgeKVStore
import ForgeTestSupport
import Foundation

/// Every store of the ``CrashPlan``, opened in the writer's folder.
struct Stores {
    let keyValues: DiskKVStore
    let files: DiskFileStore
    let vault: EncryptedFileCrypt
    let scratchValues: DiskKVStore
    let scratchFiles: DiskFileStore

    init(in folder: URL) throws {
        keyValues = DiskKVStore(directory: .custom(folder), namespace: CrashPlan.kvNamespace)
        files = DiskFileStore(directory: .custom(folder), namespace: CrashPlan.filesNamespace)
        vault = try EncryptedFileCrypt(
            directory: .custom(folder),
            namespace: CrashPlan.vaultNamespace,
            masterKey: .keyFile(folder.appendingPathComponent(CrashPlan.keyFileName))
        )
        scratchValues = DiskKVStore(directory: .custom(folder), namespace: CrashPlan.kvScratchNamespace)
        scratchFiles = DiskFileStore(directory: .custom(folder), namespace: CrashPlan.filesScratchNamespace)
    }
}
