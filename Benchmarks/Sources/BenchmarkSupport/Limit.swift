import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The raw limit each store is measured against: the fewest POSIX calls that give the same result with the
/// same durability.
public enum Limit {
    /// Reads a whole file: `open`, `fstat`, `read` until the size is read, `close`.
    public static func readFile(atPath path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        guard let buffer = malloc(max(size, 1)) else { return nil }
        var count = 0
        while count < size {
            let result = read(fd, buffer + count, size - count)
            if result > 0 {
                count += result
            } else if result == 0 || errno != EINTR {
                break
            }
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// ``readFile(atPath:)`` as a nonisolated async function, called with `await` as an async store is.
    public static func readFileAwaited(atPath path: String) async -> Data? {
        readFile(atPath: path)
    }

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`: `open`, `write`, `close`,
    /// `rename`.
    ///
    /// A reader, and a process that crashes, see the old contents or the new, never a torn file; a power loss may
    /// lose the write. The limit of a store with the `.atomic` durability.
    @discardableResult
    public static func writeAtomically(_ data: Data, toPath path: String) -> Bool {
        let temporary = path + ".limit-tmp"
        guard writeFile(data, toPath: temporary, flushed: false) else { return false }
        return rename(temporary, path) == 0
    }

    /// ``writeAtomically(_:toPath:)`` that also survives a power loss: the temporary file is flushed before the
    /// rename and its folder after (`F_FULLFSYNC` on Apple platforms, `fsync` elsewhere).
    ///
    /// `open`, `write`, flush, `close`, `rename`, then `open` the folder, flush, `close`: the limit of a flushed
    /// store and of the vault.
    @discardableResult
    public static func writeFlushed(_ data: Data, toPath path: String) -> Bool {
        let temporary = path + ".limit-tmp"
        guard writeFile(data, toPath: temporary, flushed: true), rename(temporary, path) == 0 else { return false }
        return flushFolder(atPath: parentPath(of: path))
    }

    /// Creates or truncates the file at `path` and writes all of `data`, flushing it first when `flushed`.
    private static func writeFile(_ data: Data, toPath path: String, flushed: Bool) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        let written = data.withUnsafeBytes { bytes -> Bool in
            guard var pointer = bytes.baseAddress else { return true }
            var remaining = bytes.count
            while remaining > 0 {
                let result = write(fd, pointer, remaining)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                remaining -= result
                pointer += result
            }
            return true
        }
        let synchronized = !flushed || flush(fd)
        return close(fd) == 0 && written && synchronized
    }

    /// Flushes the folder at `path`, so that a rename in it survives a power loss.
    private static func flushFolder(atPath path: String) -> Bool {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return false }
        let synchronized = flush(folder)
        return close(folder) == 0 && synchronized
    }

    /// Flushes an open file or folder to the storage device: `F_FULLFSYNC` on Apple platforms (a plain `fsync`
    /// there may leave the data in the drive's cache), `fsync` elsewhere.
    private static func flush(_ fd: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }

    /// Everything before the last `/` of `path`, found by byte.
    private static func parentPath(of path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            var index = bytes.count
            while index > 0 {
                index -= 1
                if bytes[index] == UInt8(ascii: "/") { return String(decoding: bytes[..<max(index, 1)], as: UTF8.self) }
            }
            return "."
        }
    }

    /// The names in a folder, sorted, from `opendir`/`readdir`.
    public static func listFolder(atPath path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            names.append(Int32(entry.pointee.d_type) == Int32(DT_DIR) ? name + "/" : name)
        }
        names.sort()
        return names
    }

    /// The total size of the regular files in a folder, from `readdir` and `fstatat`.
    public static func totalSize(atPath path: String) -> Int {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var total = 0
        while let entry = readdir(directory) {
            guard Int32(entry.pointee.d_type) == Int32(DT_REG) else { continue }
            var info = stat()
            let found = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                raw.withMemoryRebound(to: CChar.self) { name in
                    guard let pointer = name.baseAddress else { return false }
                    return fstatat(fd, pointer, &info, AT_SYMLINK_NOFOLLOW) == 0
                }
            }
            if found { total += Int(info.st_size) }
        }
        return total
    }
}
