internal import Foundation

/// The file `.forge-lifetimes` in a ``DiskKVStore``'s folder: which files may hold a value with a lifetime, and from
/// when each may have expired, so that `contains`, `keys()` and a reclaim read only the files that may have expired.
///
/// ```
/// forge-lifetimes 1 5F0C6A2E-93B1-4C5D-8E7A-2B1D0C9E8F7A
/// 1767229200000 session.token.json
/// 1767229260000 user%3a42.json
/// ~ session.token.json
/// ```
///
/// The first line names the format and this index (a new one gets a new identity, so a reader that read an index to
/// some length can tell it still reads the same file). Then a line per write of a value with a lifetime: its
/// expiration date in whole milliseconds since 1970, a space, its file's name. Each is added to the end, under the
/// folder's shared lock, before the value's file is written (``StoreFolder``'s indexed write), so a file with an
/// `ExpiryHeader` never stands in a folder whose index does not name it. A file named more than once may have expired
/// from the earliest of its dates; a file no line names holds no lifetime. The file's own header stays the truth: a
/// file that may have expired is read, and one set again without a lifetime, or removed, keeps its lines until a
/// reclaim finds it.
///
/// A reclaim works under the folder's exclusive lock, which every write waits for: it reads the files that may have
/// expired, removes those that have, and adds a line `~ ` and the file's name for each file it found removed, expired
/// or without a lifetime, which forgets the lines before it (for a file set again with a later lifetime, that date's
/// line follows), so that a reclaim costs the files that may have expired, not the index. When the index has grown to
/// more than twice the lines its files need (a key set again and again with a lifetime, many files forgotten), the
/// reclaim writes it again, by rename, with one line per file still named.
///
/// Why a reader may trust it without a lock, whatever other instances and processes do: a write adds its line before
/// its file, so a reader that read the index before the line can count as live only a value written after it began,
/// one as fresh as if the listing had run first (`get` always reads the file). A line cut short (a write that crashed
/// midway, or one a reader meets midway) is left for the next read; every addition starts with a line end, so a line a
/// crashed writer cut short ends where the next addition starts, and a reclaim, which holds every writer back, writes
/// the index again when it ends in one. A line that is not an entry, a first line that is not this format's, or
/// anything but a regular file under the name make the index damaged: readers then read every file, the long way,
/// which is always right, and the next reclaim writes the index again from the files. `removeAll()` removes it with the
/// folder; a folder emptied in place loses it with every file. All of this rests on the folder's advisory lock
/// (`flock`): on a file system that refuses it (some network volumes), a reclaim that writes the index again may lose a
/// line another process adds at that moment, and its value is then counted as live until it is set again or removed.
///
/// With `Durability.flushed` a line is flushed before its file is written, so an acknowledged value with a lifetime is
/// named after a power loss. With `Durability.atomic` nothing is flushed and a power loss may keep a value's file but
/// not its line: `get` then still reads it as expired, but `contains` and `keys()` count it until a `set` or `remove`
/// replaces it, and no reclaim removes it.
///
/// The name ends in no `.json`, so no key file has it and every listing of keys skips it; it is not a temporary name,
/// so the leftover sweep leaves it.
struct LifetimesIndex: Sendable {
    /// The index's name in the namespace folder.
    static let name = ".forge-lifetimes"
    /// How the first line starts: the format's name and version.
    static let formatPrefix = Array("forge-lifetimes 1 ".utf8)
    /// The most digits a date in a line holds: those of `Int64.min`, its sign apart.
    private static let maximumDigits = 19

    /// The first line, its end included.
    private(set) var header: Data
    /// Each file named, with the earliest date, in milliseconds since 1970, from which it may have expired.
    private(set) var expirations: [String: Int64] = [:]
    /// The earliest date of all; `Int64.max` when no file is named.
    private(set) var earliest = Int64.max
    /// How many lines were read after the first: those that name a file and those that forget one (empty ones left
    /// out).
    private(set) var lineCount = 0
    /// How many bytes were read: the first line and every whole line after it.
    private(set) var length = 0

    /// The first line of a new index, with an identity of its own.
    static func newHeader() -> Data {
        Data(formatPrefix) + Data("\(UUID().uuidString)\n".utf8)
    }

    /// The line that says the file `fileName` holds a value that expires `milliseconds` after 1970.
    static func entry(fileName: String, expiresAtMilliseconds milliseconds: Int64) -> Data {
        Data("\(milliseconds) \(fileName)\n".utf8)
    }

    /// `lines` as they are added to the end of an index: after a line end.
    ///
    /// A line that a writer that crashed cut short then ends there, and reads as damaged rather than as the start of
    /// the first line added after it (a date cut to its first digits would otherwise make, with the next line, a date
    /// far later). The empty line this leaves where nothing was cut is skipped.
    static func addition(_ lines: Data) -> Data {
        Data([UInt8(ascii: "\n")]) + lines
    }

    /// How a line that forgets a file starts.
    private static let forgettingPrefix = Array("~ ".utf8)

    /// The line that forgets the lines before it about the file `fileName`: a reclaim found it removed, expired and
    /// removed, or holding no lifetime.
    static func forgetting(fileName: String) -> Data {
        Data(forgettingPrefix) + Data("\(fileName)\n".utf8)
    }

    /// The index in `data`, a whole index file; nil when it is damaged.
    ///
    /// A last line without its end is left unread: it is being written, or its writer crashed.
    init?(parsing data: Data) {
        guard data.starts(with: Self.formatPrefix), let headerEnd = data.firstIndex(of: UInt8(ascii: "\n")) else {
            return nil
        }
        header = Data(data[...headerEnd])
        length = header.count
        guard add(parsing: data[data.index(after: headerEnd)...]) else { return nil }
    }

    /// An index that names the files in `expirations`, with a new first line.
    init(naming expirations: [String: Int64]) {
        header = Self.newHeader()
        for (fileName, milliseconds) in expirations { note(fileName, expiresAt: milliseconds) }
        lineCount = expirations.count
        length = contents.count
    }

    /// Reads the lines added after ``length``, `data` being the file from there on; false when one is damaged.
    ///
    /// A last line without its end is left unread, for the next read.
    mutating func add(parsing data: Data.SubSequence) -> Bool {
        var lineStart = data.startIndex
        var forgot = false
        while let lineEnd = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = data[lineStart..<lineEnd]
            if line.isEmpty {
                // The line end an addition starts with (see `addition(_:)`).
            } else if line.starts(with: Self.forgettingPrefix) {
                guard let fileName = Self.parseFileName(line.dropFirst(Self.forgettingPrefix.count)) else {
                    return false
                }
                forgot = expirations.removeValue(forKey: fileName) != nil || forgot
            } else {
                guard let (fileName, milliseconds) = Self.parseEntry(line) else { return false }
                note(fileName, expiresAt: milliseconds)
            }
            if !line.isEmpty { lineCount += 1 }
            length += lineEnd - lineStart + 1
            lineStart = data.index(after: lineEnd)
        }
        // The earliest date may have been a forgotten file's.
        if forgot { earliest = expirations.values.min() ?? .max }
        return true
    }

    /// Whether the file `fileName` may hold a value that has expired by `milliseconds` after 1970.
    func mayHaveExpired(_ fileName: String, by milliseconds: Int64) -> Bool {
        expirations[fileName].map { $0 <= milliseconds } ?? false
    }

    /// Whether a file may hold a value that has expired by `milliseconds` after 1970: what
    /// ``filesThatMayHaveExpired(by:)`` finds, without finding them.
    func hasFilesThatMayHaveExpired(by milliseconds: Int64) -> Bool {
        earliest <= milliseconds
    }

    /// The files that may hold a value that has expired by `milliseconds` after 1970, earliest first (by name among
    /// equals).
    func filesThatMayHaveExpired(by milliseconds: Int64) -> [String] {
        guard hasFilesThatMayHaveExpired(by: milliseconds) else { return [] }
        return expirations.filter { $0.value <= milliseconds }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .map(\.key)
    }

    /// Whether the index holds more than twice the lines its files need, and a little more: a reclaim then writes it
    /// again.
    var isWorthCompacting: Bool {
        isWorthCompacting(adding: 0, renamed: 0)
    }

    /// Whether the index would be worth writing again (``isWorthCompacting``) once lines that forget `forgotten` of its
    /// files, and name `renamed` of those again, are added.
    func isWorthCompacting(adding forgotten: Int, renamed: Int) -> Bool {
        lineCount + forgotten + renamed > 2 * (expirations.count - forgotten + renamed) + 64
    }

    /// The index's contents: the first line and one line per file, in no particular order.
    var contents: Data {
        var data = header
        for (fileName, milliseconds) in expirations {
            data += Self.entry(fileName: fileName, expiresAtMilliseconds: milliseconds)
        }
        return data
    }

    /// Notes that the file `fileName` may have expired from `milliseconds` after 1970, keeping the earliest date.
    private mutating func note(_ fileName: String, expiresAt milliseconds: Int64) {
        let clamped = min(max(milliseconds, -KVStoredValue.latestMilliseconds), KVStoredValue.latestMilliseconds)
        expirations[fileName] = min(expirations[fileName] ?? .max, clamped)
        earliest = min(earliest, clamped)
    }

    /// The file name and date of an entry line, its end left off; nil when it is not one.
    private static func parseEntry(_ line: Data.SubSequence) -> (String, Int64)? {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let number = line[..<space]
        let digits = number.first == UInt8(ascii: "-") ? number.dropFirst() : number
        guard !digits.isEmpty, digits.count <= maximumDigits,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let milliseconds = Int64(String(decoding: number, as: UTF8.self))
        else { return nil }
        guard let fileName = parseFileName(line[line.index(after: space)...]) else { return nil }
        return (fileName, milliseconds)
    }

    /// The file name `bytes` spell; nil when they are not one a key's file has.
    private static func parseFileName(_ bytes: Data.SubSequence) -> String? {
        guard let fileName = String(validating: bytes, as: UTF8.self), fileName.hasSuffix(KeyFileName.fileExtension),
            !fileName.contains(" "), !fileName.contains("/"), !fileName.contains("\0")
        else { return nil }
        return fileName
    }
}
