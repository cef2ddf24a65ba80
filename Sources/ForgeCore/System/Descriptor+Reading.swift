package import Foundation

// Reading an open file: all of it, its status, a counter in it.

extension Descriptor {
    /// The whole regular file, to its end; a folder fails with `EISDIR`, any other kind of file with `EINVAL`.
    package func readAll() throws(FileSystemError) -> Data {
        try readToEnd(expecting: status(regularFile: true).size)
    }

    /// The whole regular file when its size is at most `limit` bytes; nil, with nothing read, when it is larger.
    ///
    /// A folder fails with `EISDIR`, any other kind of file with `EINVAL`.
    package func readAll(ifAtMost limit: Int) throws(FileSystemError) -> Data? {
        let size = try status(regularFile: true).size
        guard size <= limit else { return nil }
        return try readToEnd(expecting: size)
    }

    /// The regular file from `offset` to its end; empty when it ends before `offset`.
    ///
    /// For a file that only ever grows at its end: a reader that read it to some length reads only what came after.
    package func readAll(from offset: Int) throws(FileSystemError) -> Data {
        let size = try status(regularFile: true).size
        guard size > offset else { return Data() }
        guard systemCall(.seek, on: path, { lseek(fd, off_t(offset), SEEK_SET) }) >= 0 else {
            throw .current(.read, path: path)
        }
        return try readToEnd(expecting: size - offset)
    }

    /// The regular file from `offset` to its end, when its first bytes are `prefix`; nil when they are not.
    ///
    /// For a file that only grows at its end, read again from where a reader stopped: `prefix`, its first line, tells
    /// that it is still the file that reader read.
    package func readAll(from offset: Int, ifStartingWith prefix: Data) throws(FileSystemError) -> Data? {
        guard try readBytes(count: prefix.count, at: 0) == prefix else { return nil }
        return try readAll(from: offset)
    }

    /// Up to `count` bytes of the file from `offset`: fewer where it ends.
    package func readBytes(count: Int, at offset: Int) throws(FileSystemError) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            // `pread` fills the buffer in place, so it takes the buffer's address.
            let result = systemCall(.read, on: path, count: count - filled) { wanted in
                data.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress.map { $0 + filled }, wanted, off_t(offset + filled))
                }
            }
            if result < 0 {
                guard errno == EINTR else { throw .current(.read, path: path) }
                continue
            }
            if result == 0 { break }
            filled += result
        }
        data.count = filled
        return data
    }

    /// The file from its current position to its end, `size` being its size when it was last looked at.
    private func readToEnd(expecting size: Int) throws(FileSystemError) -> Data {
        // The buffer has a byte more than the size: a read that fills less than it asked, once `size` bytes are in,
        // has met the end, and a file that grew since fills it and is read on. A read cut short before (a signal
        // part-way through a slow volume's read) is read on; a read of nothing is the end whatever the size said.
        var data = Data(count: max(size, 0) + 1)
        var count = 0
        while true {
            if count == data.count { data.count += max(data.count, 4096) }
            let wanted = data.count - count
            // `read` fills the buffer in place, so it takes the buffer's address.
            let result = systemCall(.read, on: path, count: wanted) { wanted in
                data.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, wanted) }
            }
            if result < 0 {
                guard errno == EINTR else { throw .current(.read, path: path) }
                continue
            }
            count += result
            if result == 0 || (result < wanted && count >= size) { break }
        }
        data.count = count
        return data
    }

    /// The status of the open file; with `regularFile` set, anything else fails (`EISDIR` a folder, else `EINVAL`).
    package func status(regularFile: Bool = false) throws(FileSystemError) -> FileStatus {
        var info = stat()
        guard systemCall(.status, on: path, { fstat(fd, &info) }) == 0 else { throw .current(.stat, path: path) }
        let status = FileStatus(info)
        guard !regularFile || status.kind == .file else {
            throw FileSystemError(.read, path: path, code: status.kind == .folder ? EISDIR : EINVAL)
        }
        return status
    }

    /// The 8-byte little-endian counter at `offset` in the file; 0 while the file ends before it.
    package func readCounter(at offset: Int) throws(FileSystemError) -> UInt64 {
        let bytes = try readBytes(count: 8, at: offset)
        guard bytes.count == 8 else { return 0 }
        return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
