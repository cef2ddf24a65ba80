internal import Foundation

/// A path inside a store's folder, checked before any I/O so that every store accepts and refuses the same
/// paths and no path can name anything outside the store.
///
/// A path is `/`-separated names. It is refused when it is empty, absolute (starts with `/`), holds NUL, is
/// longer than ``maximumLength`` bytes, or has a name that is empty (`a//b`, a trailing `/`), `.` or `..`,
/// longer than ``maximumNameLength`` bytes, or has the form of the stores' temporary files. Paths are kept
/// in Unicode NFC, so canonically equivalent spellings (`é` precomposed or as `e` and a combining accent)
/// name one file on every file system and in memory, as Swift compares strings.
package struct RelativePath: Sendable, Hashable {
    /// The path in its canonical (NFC) spelling, names joined by `/`.
    package let string: String

    /// The names of the path, outermost first; empty only for the root folder.
    ///
    /// Split when asked: a store that opens the whole path in one call never needs them.
    package var components: [String] {
        string.isEmpty ? [] : Self.names(of: string).map { String($0) }
    }

    /// The longest path, in UTF-8 bytes, that is accepted: the shortest `PATH_MAX` of the supported systems.
    package static let maximumLength = 1024
    /// The longest name, in UTF-8 bytes, that is accepted: `NAME_MAX` of the supported file systems.
    package static let maximumNameLength = FileNameEncoding.maximumNameLength

    /// Why a path was refused.
    package enum Violation: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path is empty.
        case empty
        /// The path starts with `/`.
        case absolute
        /// The path holds a NUL character.
        case containsNUL
        /// The path is longer than ``RelativePath/maximumLength`` bytes.
        case tooLong(byteCount: Int)
        /// The path has an empty name: `//`, or a `/` at the end of a file path.
        case emptyName
        /// The path has a `.` or `..` name.
        case dotName(String)
        /// A name is longer than ``RelativePath/maximumNameLength`` bytes.
        case nameTooLong(String)
        /// A name has the form the stores reserve for their temporary files.
        case reservedName(String)

        /// A short sentence saying what is wrong.
        package var description: String {
            switch self {
            case .empty:
                "the path is empty"
            case .absolute:
                "the path is absolute; paths are relative to the store's folder"
            case .containsNUL:
                "the path contains a NUL character"
            case .tooLong(let byteCount):
                "the path is \(byteCount) bytes long; the limit is \(RelativePath.maximumLength)"
            case .emptyName:
                "the path has an empty name (a doubled '/', or a '/' at the end)"
            case .dotName(let name):
                "the path has a '\(name)' name; '.' and '..' are not allowed"
            case .nameTooLong(let name):
                "the name '\(name.prefix(32))…' is \(name.utf8.count) bytes long; "
                    + "the limit is \(RelativePath.maximumNameLength)"
            case .reservedName(let name):
                "the name '\(name)' has the form reserved for temporary files"
            }
        }
    }

    /// Checks `path` as the path of a file.
    ///
    /// - Throws: the ``Violation`` that makes the path unusable.
    package init(validating path: String) throws(Violation) {
        guard !path.isEmpty else { throw .empty }
        try self.init(checking: path)
    }

    /// Checks `path` as the path of a folder: the same rules as a file path, except that the empty path
    /// names the store's own folder and one `/` at the end is allowed (`"docs/"` is `"docs"`).
    ///
    /// - Throws: the ``Violation`` that makes the path unusable.
    package init(validatingFolder path: String) throws(Violation) {
        if path.isEmpty {
            self.init(string: "")
            return
        }
        var trimmed = Substring(path)
        if trimmed.utf8.count > 1, trimmed.utf8.last == UInt8(ascii: "/") { trimmed = trimmed.dropLast() }
        try self.init(checking: String(trimmed))
    }

    private init(checking path: String) throws(Violation) {
        if path.utf8.contains(0) { throw .containsNUL }
        if path.utf8.first == UInt8(ascii: "/") { throw .absolute }
        let canonical = FileNameEncoding.canonicalForm(of: path)
        let length = canonical.utf8.count
        if length > Self.maximumLength { throw .tooLong(byteCount: length) }
        // Name by name, without an array of them: every load and save checks its path here.
        var rest = canonical.utf8[...]
        while true {
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            if let violation = Self.violation(ofName: Substring(rest[..<end])) { throw violation }
            guard end < rest.endIndex else { break }
            rest = rest[rest.index(after: end)...]
        }
        self.init(string: canonical)
    }

    /// The names of `path`, split on the byte `/`.
    ///
    /// Not on Characters: a `/` followed by a combining mark is one Character, yet it still separates two names on
    /// disk. In UTF-8 that byte is never part of another scalar.
    private static func names(of path: String) -> [Substring] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// Why `name` cannot be part of a path, or nil when it can.
    private static func violation(ofName name: Substring) -> Violation? {
        // Compared as bytes: the names of every load pass here, and a name that starts with no dot is neither `.`,
        // `..` nor a temporary name.
        let bytes = name.utf8
        if bytes.isEmpty { return .emptyName }
        if bytes.count > maximumNameLength { return .nameTooLong(String(name)) }
        guard bytes.first == UInt8(ascii: ".") else { return nil }
        if bytes.count <= 2 && bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { return .dotName(String(name)) }
        if TemporaryName.isTemporary(name) { return .reservedName(String(name)) }
        return nil
    }

    private init(string: String) {
        self.string = string
    }

    /// Whether this is the store's own folder (the empty folder path).
    package var isRoot: Bool { components.isEmpty }

    /// The paths of the folders that hold this path, outermost first: `a/b/c` gives `a` and `a/b`.
    package var ancestors: [String] {
        var result: [String] = []
        result.reserveCapacity(max(components.count - 1, 0))
        var prefix = ""
        for name in components.dropLast() {
            prefix = prefix.isEmpty ? name : prefix + "/" + name
            result.append(prefix)
        }
        return result
    }

    /// The relative path of an entry named `name` directly inside this folder.
    package func appending(_ name: String) -> String {
        isRoot ? name : string + "/" + name
    }
}
