public import Foundation
internal import ForgeCore

/// A value stored only where none is: the check and the write under the folder's exclusive lock.
extension DiskKVStore {
    /// Stores `value` under `name` unless its file holds a value that has not expired at `date`, and returns whether
    /// it did.
    ///
    /// The file is read and written under the folder's exclusive lock, which every write and remove of this library's
    /// disk key-value stores waits for, in this process or another: of instances that store one name at once, one
    /// writes and the others find its value. A process of a version before this lock is not held back. A file that
    /// cannot be read, or whose value does not decode, holds a value; one that has expired is replaced.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` when the folder or the file cannot be read or written;
    ///   what was stored is kept.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        var attempts = 0
        while true {
            do {
                let stored = try folder.withExclusiveLock(creatingFolder: true) { locked in
                    guard try !holdsValue(named: name, liveAt: date) else { return false }
                    let fileName = try fileName(toStore: name)
                    try locked.write(
                        try fileContents(holding: value, named: name),
                        as: fileName,
                        indexedIn: Self.indexEntry(ofFile: fileName, expiringAt: value.expiresAtMilliseconds)
                    )
                    return true
                }
                return stored ?? false
            } catch let error as FileSystemError {
                attempts += 1
                // The folder was removed after it was opened (another instance's `removeAll()`): again, in a new one.
                if error.isMissing && attempts < 8 { continue }
                throw KVStoreError(error, writing: name)
            }
        }
    }

    /// Whether `name` holds a value not expired at `date`; a file that cannot be read holds one.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` with the reason the file cannot be read.
    private func holdsValue(named name: String, liveAt date: Date) throws -> Bool {
        do {
            return try storedValue(named: name).map { !$0.isExpired(at: date) } ?? false
        } catch KVStoreError.readFailed(let key, let reason) {
            throw KVStoreError.writeFailed(key: key, underlying: reason)
        }
    }

    /// The file `name`'s value goes to: its escaped name, or for a name too long for a file name the slot among its
    /// hash's that holds it, or else the first free one.
    private func fileName(toStore name: String) throws -> String {
        switch KeyFileName(key: name) {
        case .exact(let fileName): fileName
        case .hashed(let fileNames): try slot(for: name, among: fileNames).name
        }
    }
}
