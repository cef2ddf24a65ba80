public import Foundation
internal import ForgeCore

/// A value stored only where none is: the check and the write under the folder's exclusive lock.
extension DiskKVStore {
    /// Stores `value` under `name` unless its file holds a value that has not expired at `date`, and returns whether
    /// it did.
    ///
    /// The file is read and written under the folder's exclusive lock, which every write and remove of this library's
    /// disk key-value stores waits for, in this process or another, and through the descriptor that holds it, so the
    /// check and the write see one folder even when another instance's `removeAll()` replaces it meanwhile: of
    /// instances that store one name at once, one writes and the others find its value. A file system that cannot lock
    /// (some network volumes) fails the call rather than store without the lock, and a process of a version before
    /// this lock is not held back. A file that has expired is replaced, and so are a file a power loss left empty or
    /// damaged, which reads as no value (its JSON is not JSON), and a symbolic link in the file's place, which reads as
    /// none; a file of another type's value is kept.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` when the folder cannot be locked, or the file cannot be
    ///   read or written; what was stored is kept.
    public func storeIfAbsent(_ value: KVStoredValue, named name: String, liveAt date: Date) throws -> Bool {
        var attempts = 0
        while true {
            do {
                let stored = try folder.withExclusiveLock(creatingFolder: true, requiringLock: true) { locked in
                    guard try !holdsValue(named: name, liveAt: date, in: locked) else { return false }
                    let fileName = try fileName(toStore: name, in: locked)
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

    /// Whether `name` holds a value not expired at `date`, its files read through the `locked` folder: a link, an
    /// empty file and a file that holds no JSON hold none.
    ///
    /// - Throws: ``KVStoreError/writeFailed(key:underlying:)`` with the reason a file cannot be read.
    private func holdsValue(named name: String, liveAt date: Date, in locked: LockedFolder) throws -> Bool {
        let stored = try storedValue(named: name) { fileName in
            do throws(FileSystemError) {
                return try locked.read(fileName)
            } catch  where error.code == ELOOP {
                return nil
            } catch {
                throw KVStoreError(error, writing: name)
            }
        }
        guard let stored, !stored.isExpired(at: date) else { return false }
        return (try? JSONSerialization.jsonObject(with: stored.json, options: .fragmentsAllowed)) != nil
    }

    /// The file `name`'s value goes to: its escaped name, or for a name too long for a file name the slot among its
    /// hash's that holds it, or else the first free one, read through the `locked` folder.
    private func fileName(toStore name: String, in locked: LockedFolder) throws -> String {
        switch KeyFileName(key: name) {
        case .exact(let fileName):
            return fileName
        case .hashed(let fileNames):
            return try slot(for: name, among: fileNames) { fileName throws(FileSystemError) in
                guard let data = try locked.read(fileName) else {
                    throw FileSystemError(.open, path: fileName, code: ENOENT)
                }
                return data
            }
            .name
        }
    }
}
