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

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
    ///
    /// A reader sees the old contents or the new, never a torn file. With `synchronize`, the file and its
    /// folder are flushed too.
    @discardableResult
    public static func writeAtomically(_ data: Data, toPath path: String, synchronize: Bool = false) -> Bool {
        let temporary = path + ".limit-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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
        if synchronize { _ = fsync(fd) }
        guard close(fd) == 0, written, rename(temporary, path) == 0 else { return false }
        if synchronize {
            let folder = open(parentPath(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 {
                _ = fsync(folder)
                _ = close(folder)
            }
        }
        return true
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
